import Testing

@testable import RouteCore

/// The indexed `firstMatch` must give exactly the linear scan's answer, and the flattened pattern program
/// exactly the general matcher's.
@Suite struct RuleSetEquivalenceTests {
    @Test func indexedFirstMatchEqualsLinearScan() {
        var random = SeededRandom(seed: 0x5EED_0001)
        var pairs = 0
        var matched = 0
        var decidedLate = 0
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            let rules = (0..<Int.random(in: 1...40, using: &random)).map { _ in RandomRules.rule(&random) }
            let ruleSet = RuleSet(rules: rules, substitutionVariables: RandomRules.variables)
            for _ in 0..<21 {
                let url = RandomRules.url(&random)
                let fast = ruleSet.firstMatch(url)
                let linear = ruleSet.firstMatchLinear(url)
                pairs += 1
                if linear != nil { matched += 1 }
                if let linear, linear >= 5 { decidedLate += 1 }
                if fast != linear && mismatches.count < 5 {
                    mismatches.append(
                        "\(url): indexed \(String(describing: fast)), linear \(String(describing: linear))")
                }
            }
        }
        #expect(pairs >= 100_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The corpus must exercise both outcomes, or the comparison proves little.
        // The corpus must exercise both outcomes and decisions deep in the list, or the comparison proves
        // little.
        #expect(matched > pairs / 10 && matched < pairs * 9 / 10, "matched \(matched) of \(pairs)")
        #expect(decidedLate > pairs / 10, "decided at index >= 5: \(decidedLate) of \(pairs)")
    }

    @Test func programEqualsGeneralMatcher() {
        var random = SeededRandom(seed: 0x5EED_0002)
        let variables = SubstitutionVariables([:])
        var checked = 0
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let text = RandomRules.pattern(&random)
            let isPath = Bool.random(using: &random)
            let pattern = CompiledPattern(
                text, isPath: isPath, folded: Bool.random(using: &random), variables: variables)
            guard let program = pattern.program else { continue }
            for _ in 0..<5 {
                let subject = Array(
                    RandomRules.pattern(&random, pieces: ["a", "b", "/", "A", "1", "en", "\u{e9}"]).utf8)
                let canonical = isPath ? TextForms.canonicalPath(subject) : subject
                let fast = canonical.withUnsafeBufferPointer { program.matches($0) }
                let general = canonical.withUnsafeBufferPointer { CompiledPattern.generalMatch(pattern.tokens, $0) }
                checked += 1
                if fast != general && mismatches.count < 5 {
                    mismatches.append("\(text) vs \(String(decoding: canonical, as: UTF8.self)): \(fast) \(general)")
                }
            }
        }
        #expect(checked > 50_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
