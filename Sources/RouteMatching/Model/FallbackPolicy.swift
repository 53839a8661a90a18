/// How a fallback URL is made: the original URL plus a marker query item that every generated AASA
/// excludes first, so iOS does not send the browser straight back into the app.
public struct FallbackPolicy: Sendable, Hashable, Codable {
    /// The marker's query item name, `ul_fallback` by default.
    public var queryItem: String
    /// The marker's value, `1` by default; never empty, since the AASA exclusion requires a non-empty value.
    public var value: String

    public init(queryItem: String = "ul_fallback", value: String = "1") {
        self.queryItem = queryItem
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        queryItem = try c.decodeIfPresent(String.self, forKey: .queryItem) ?? "ul_fallback"
        value = try c.decodeIfPresent(String.self, forKey: .value) ?? "1"
    }
}
