/// `If-None-Match` matching (RFC 9110 §13.1.2): a `*`, or a comma-separated list of tags, each possibly
/// weak (`W/"x"`); `If-None-Match` uses the weak comparison, so `W/` prefixes are ignored on both sides.
enum EntityTag {
    static func list(_ header: String, matches etag: String) -> Bool {
        let target = opaque(etag[...])
        var rest = header[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { return false }
            if rest.first == "*" { return true }
            var tag = rest
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            guard tag.first == "\"" else {
                // Not a tag: skip to the next comma.
                rest = rest.drop { $0 != "," }
                continue
            }
            let body = tag.dropFirst()
            guard let close = body.firstIndex(of: "\"") else { return false }
            if body[..<close] == target { return true }
            rest = body[body.index(after: close)...]
        }
    }

    /// The tag between its quotes, without any `W/`.
    static func opaque(_ tag: Substring) -> Substring {
        var t = tag
        if t.hasPrefix("W/") { t = t.dropFirst(2) }
        if t.hasPrefix("\""), t.hasSuffix("\""), t.count >= 2 { return t.dropFirst().dropLast() }
        return t
    }
}
