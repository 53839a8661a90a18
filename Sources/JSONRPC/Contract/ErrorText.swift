/// Keeps error text short and in the API's words.
enum ErrorText {
    /// The longest message or field description sent to a client, in characters: a client's 100 KB value
    /// must not come back in full in the error about it.
    static let limit = 300

    /// `text`, or its first `count` characters and how long it was.
    static func cut(_ text: String, to count: Int = limit) -> String {
        guard text.utf8.count > count else { return text }
        let prefix = text.prefix(count)
        guard prefix.endIndex < text.endIndex else { return text }
        return "\(prefix)… (cut; \(text.count) characters in all)"
    }

    /// A decoder's own text (which names Swift types or says "not valid JSON" about valid JSON) in the API's
    /// words; the document's rules are checked before decoding, so this is a backstop.
    static func decoderDescription(_ text: String) -> String {
        if text.hasPrefix("Cannot initialize") { return "is not one of the allowed values" }
        if text.hasPrefix("Could not convert key") { return "has a member name that is not allowed" }
        if text.hasPrefix("Parsed JSON number") || text.contains("does not fit") { return "is out of range" }
        if text.contains("not valid JSON") || text.contains("Expected to decode") || text.contains("Swift.") {
            return "is not a valid value here"
        }
        return cut(text)
    }
}
