/// Request input written back in an error's text, as a quoted string nothing can read as markup: at most
/// `limit` characters, and every byte outside printable ASCII, plus `<`, `>`, `&`, quotes and `\`, written
/// as `\u{3C}`. With `X-Content-Type-Options: nosniff` on every error (`HTTPResponse.errorHeaders`), an
/// echo never turns an error page into one a browser would run.
public enum PlainEcho {
    /// `"text"`, escaped and cut to `limit` characters (`…` marks the cut).
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        var out = "\""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == limit {
                out += "…"
                break
            }
            switch scalar.value {
            case 0x3C, 0x3E, 0x26, 0x22, 0x27, 0x5C, 0x60:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            case 0x20..<0x7F:
                out.unicodeScalars.append(scalar)
            default:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out + "\""
    }
}
