/// A query pattern: a string matched against the whole query, or named items that must each match.
public enum QueryPattern: Sendable, Hashable, Codable {
    case string(String)
    case items([String: String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .items(try container.decode([String: String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .items(let items): try container.encode(items)
        }
    }

    /// The matcher's form of the pattern.
    package var rule: QueryRule {
        switch self {
        case .string(let text): .string(text)
        case .items(let items): .items(items)
        }
    }
}
