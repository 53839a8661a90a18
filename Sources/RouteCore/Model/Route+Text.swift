/// How patterns and version ranges read for people, shared by the CLI's tables and a manifest plan's lines.
extension URLPattern {
    /// `/l/a/*?ref=*#top`, with `badoo://` in front for a custom-scheme route and options after.
    public var displayText: String {
        var text = scheme.map { "\($0)://" } ?? ""
        text += path ?? "*"
        switch query {
        case .string(let query): text += "?" + query
        case .items(let items):
            text += "?" + items.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        case nil: break
        }
        if let fragment { text += "#" + fragment }
        var options: [String] = []
        if caseSensitive == false { options.append("case-insensitive") }
        if percentEncoded == false { options.append("percent-decoded") }
        if !options.isEmpty { text += " (" + options.joined(separator: ", ") + ")" }
        return text
    }
}

extension VersionRange {
    /// `5.12.0+` (open-ended) or `5.0–6.0` (until is exclusive).
    public var displayText: String {
        guard let until else { return "\(since)+" }
        return "\(since)–\(until)"
    }
}
