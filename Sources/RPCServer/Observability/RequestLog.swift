import Foundation

/// Where the server writes its one JSON line per request (and its error details, keyed by request id).
///
/// Lines never carry tokens or bodies. `.standardError` is the production sink; `.silent` keeps test output
/// clean; `.custom` lets tests capture lines.
public struct RequestLog: Sendable {
    let sink: (@Sendable (String) -> Void)?

    /// Writes each line with one `write(2)` so lines from different threads never interleave.
    public static let standardError = RequestLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Drops every line.
    public static let silent = RequestLog(nil)

    /// Hands every line (without its newline) to `sink`.
    public static func custom(_ sink: @escaping @Sendable (String) -> Void) -> RequestLog { RequestLog(sink) }

    init(_ sink: (@Sendable (String) -> Void)?) { self.sink = sink }

    var isEnabled: Bool { sink != nil }

    /// Writes an object whose values are already JSON (numbers) or plain strings (escaped here).
    func write(_ fields: [(String, LogValue)]) {
        guard let sink else { return }
        var line = "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { line += "," }
            line += "\"\(key)\":"
            switch value {
            case .string(let s): line += JSONText.quoted(s)
            case .number(let n): line += n
            case .strings(let list): line += "[" + list.map(JSONText.quoted).joined(separator: ",") + "]"
            }
        }
        line += "}"
        sink(line)
    }

    enum LogValue {
        case string(String)
        case number(String)
        case strings([String])
    }

    static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// JSON string literals for text the server writes by hand.
enum JSONText {
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
