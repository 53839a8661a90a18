/// The platforms a release can ship on. Raw values are the wire and database spellings.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
    case ios
    case android
}
