import Testing

@testable import RouteMatching

/// User variables are matched through `ValueTrie` (plain values walked from every position at once, shared by
/// every token of the variable); the answer must be exactly that of the pattern written out with every
/// choice of values, which has no variables at all.
@Suite struct SubstitutionMatchingTests {
    static let variables: [String: [String]] = [
        "v": ["a", "ab", "", "b*", "?a"],
        "w": ["ab", "abb", "b"],
    ]

    /// Every text `pattern` stands for, one value per `$(name)`.
    static func expansions(_ pattern: String) -> [String] {
        guard let start = pattern.range(of: "$("), let close = pattern[start.upperBound...].firstIndex(of: ")"),
            let values = variables[String(pattern[start.upperBound..<close])]
        else { return [pattern] }
        let head = String(pattern[..<start.lowerBound])
        let tails = expansions(String(pattern[pattern.index(after: close)...]))
        return values.flatMap { value in tails.map { head + value + $0 } }
    }

    @Test func sharedVariableWalksEqualTheWrittenOutPattern() {
        var random = SeededRandom(seed: 0x5EED_0041)
        let compiledVariables = SubstitutionVariables(Self.variables)
        let none = SubstitutionVariables([:])
        var checked = 0
        var matched = 0
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let text = RandomRules.pattern(&random, pieces: ["a", "b", "*", "?", "$(v)", "$(w)", "$(v)$(v)"])
            guard text.contains("$(") else { continue }
            let pattern = CompiledPattern(text, isPath: false, folded: false, variables: compiledVariables)
            let written = Self.expansions(text).map {
                CompiledPattern($0, isPath: false, folded: false, variables: none)
            }
            for _ in 0..<8 {
                let subject = Array(
                    RandomRules.pattern(&random, pieces: ["a", "b", "ab", "\u{e9}"], maxPieces: 7).utf8)
                let answer = pattern.matches(subject)
                let expected = written.contains { $0.matches(subject) }
                checked += 1
                if answer { matched += 1 }
                if answer != expected && mismatches.count < 5 {
                    mismatches.append("\(text) vs \(String(decoding: subject, as: UTF8.self)): \(answer)")
                }
            }
        }
        #expect(checked > 10_000)
        #expect(matched > checked / 20, "too few matches to prove anything: \(matched) of \(checked)")
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The issue's pattern (64 tokens of a 51-value variable) against an 8,000-byte URL answers correctly; how
    /// fast is `make bench`'s business (`canopen_worst_case`), not a timed test's.
    @Test func theIssuePatternStillAnswersCorrectly() {
        let values = (0..<51).map { "value\($0)" }
        let variables = SubstitutionVariables(["v": values])
        let text = String(repeating: "$(v)", count: 64)
        let pattern = CompiledPattern(text, isPath: false, folded: false, variables: variables)
        let hit = Array((0..<64).map { values[($0 * 7) % 51] }.joined().utf8)
        #expect(pattern.matches(hit))
        #expect(!pattern.matches(hit + [UInt8(ascii: "x")]))
        #expect(!pattern.matches(Array(repeating: UInt8(ascii: "v"), count: 8_000)))
    }
}

/// The bounds phase's worst patterns (issue 41) on URLs as long as the API allows give the decisions a
/// reasoned reference gives; the speed is `make bench`'s business, not a timed test's.
@Suite struct WorstCaseMatchingTests {
    static let runs = (1...64).map { String(repeating: "a", count: $0) }

    /// `*` then four tokens of a…a⁶⁴: matches exactly when the subject ends with at least four `a`.
    @Test(arguments: [0, 3, 4, 5, 64, 300])
    func aRunPatternOnTheLongestURL(trailingAs: Int) {
        let pattern = CompiledPattern(
            "*$(v)$(v)$(v)$(v)", isPath: false, folded: false, variables: SubstitutionVariables(["v": Self.runs]))
        let subject = Array((String(repeating: "ab", count: 3_900) + String(repeating: "a", count: trailingAs)).utf8)
        let padded = Array(repeating: UInt8(ascii: "b"), count: 8_192 - subject.count) + subject
        #expect(padded.count == 8_192)
        #expect(pattern.matches(padded) == (trailingAs >= 4), "\(trailingAs)")
        let allA = Array(repeating: UInt8(ascii: "a"), count: 8_192)
        #expect(pattern.matches(allA))
    }

    /// Five tokens of a 51-value variable, no star: the whole subject must be five values in a row.
    @Test func fiveValueTokensOnTheLongestURL() {
        let values = (0..<51).map { "v\($0)" }
        let pattern = CompiledPattern(
            String(repeating: "$(v)", count: 5), isPath: false, folded: false,
            variables: SubstitutionVariables(["v": values]))
        #expect(pattern.matches(Array("v1v22v3v50v0".utf8)))
        #expect(!pattern.matches(Array("v1v22v3v50v0v".utf8)))
        #expect(!pattern.matches(Array(String(repeating: "v1", count: 4_096).utf8)))
    }
}
