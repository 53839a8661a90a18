/// One step of a compiled pattern. Patterns are compiled once into tokens over UTF-8 bytes, so matching a
/// URL allocates nothing and needs no regular expressions.
enum PatternToken: Sendable, Hashable {
    /// These bytes, exactly (already folded for a case-insensitive rule).
    case literal([UInt8])
    /// `?`: exactly one character (one Unicode scalar).
    case anyCharacter
    /// `*`: any run of characters, none included, `/` included.
    case anyRun
    /// A path pattern's final `/*`: the rest of the path is empty or starts with `/` (so `/buy/*` matches
    /// `/buy` and `/buy/42` but not `/buyer`). Only ever the last token.
    case subpathTail
    /// `$(alpha)` and friends: exactly one ASCII character of a class.
    case characterClass(CharacterClass)
    /// `$(lang)`, `$(region)`: two ASCII characters that form one of the codes (each code is two bytes,
    /// packed as `first << 8 | second`).
    case twoLetterCode(Set<UInt16>)
    /// A user-defined variable: one of its values, each of which may hold `?` and `*`.
    case oneOf([[PatternToken]])
}

/// The single-character classes of the predefined substitution variables (ASCII only, as Apple documents).
enum CharacterClass: Sendable, Hashable {
    case alpha, upper, lower, alnum, digit, xdigit

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        switch self {
        case .alpha: return (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
        case .upper: return byte >= 0x41 && byte <= 0x5A
        case .lower: return byte >= 0x61 && byte <= 0x7A
        case .alnum: return CharacterClass.alpha.contains(byte) || CharacterClass.digit.contains(byte)
        case .digit: return byte >= 0x30 && byte <= 0x39
        case .xdigit:
            return CharacterClass.digit.contains(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
        }
    }

    /// Under `caseSensitive: false` the variable's values are folded like any other text: `$(upper)`
    /// accepts every letter.
    var caseInsensitive: CharacterClass {
        switch self {
        case .upper, .lower: return .alpha
        default: return self
        }
    }
}
