/// The `$(name)` variables a pattern may use: Apple's predefined ones plus the document's own lists.
struct SubstitutionVariables: Sendable {
    /// The document's `substitutionVariables`, values tokenized (they may hold `?` and `*`).
    private let user: [String: [[PatternToken]]]

    init(_ user: [String: [String]]) {
        self.user = user.mapValues { values in
            values.map { CompiledPattern.tokenize(Array($0.utf8), variables: nil) }
        }
    }

    private static let languageCodes = Set(ISOCodes.languages.map(packed))
    private static let regionCodes = Set(ISOCodes.regions.map(packed))

    private static func packed(_ code: String) -> UInt16 {
        let bytes = Array(code.utf8)
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    /// The token for `$(name)`; nil for an unknown name (the text then stays literal). Predefined names win
    /// over user lists of the same name.
    func token(named name: String) -> PatternToken? {
        switch name {
        case "alpha": return .characterClass(.alpha)
        case "upper": return .characterClass(.upper)
        case "lower": return .characterClass(.lower)
        case "alnum": return .characterClass(.alnum)
        case "digit": return .characterClass(.digit)
        case "xdigit": return .characterClass(.xdigit)
        case "lang": return .twoLetterCode(Self.languageCodes)
        case "region": return .twoLetterCode(Self.regionCodes)
        default: return user[name].map { .oneOf($0) }
        }
    }
}
