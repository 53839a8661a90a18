import Testing

@testable import RouteMatching

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

    /// A rule set compiled reusing an earlier one (what every write does) answers exactly as a fresh
    /// compile after any edit, and shares the compiled rules it kept.
    @Test func reusingAnEarlierRuleSetEqualsAFreshCompile() {
        var random = SeededRandom(seed: 0x5EED_0003)
        var mismatches: [String] = []
        var shared = 0
        var edits = 0
        for _ in 0..<2_000 {
            let before = (0..<Int.random(in: 1...60, using: &random)).map { _ in RandomRules.rule(&random) }
            var after = before
            switch Int.random(in: 0..<5, using: &random) {
            case 0: after.insert(RandomRules.rule(&random), at: Int.random(in: 0...after.count, using: &random))
            case 1: after.remove(at: Int.random(in: 0..<after.count, using: &random))
            case 2: after[Int.random(in: 0..<after.count, using: &random)] = RandomRules.rule(&random)
            case 3: after.shuffle(using: &random)
            default: after += (0..<Int.random(in: 1...20, using: &random)).map { _ in RandomRules.rule(&random) }
            }
            edits += 1
            // Now and then the document's variables change too: nothing compiled with the old ones may stay.
            let variables = Int.random(in: 0..<10, using: &random) == 0 ? ["v": ["z"]] : RandomRules.variables
            let previous = RuleSet(rules: before, substitutionVariables: RandomRules.variables)
            let reused = RuleSet(rules: after, substitutionVariables: variables, reusing: previous)
            let fresh = RuleSet(rules: after, substitutionVariables: variables)
            if variables == RandomRules.variables {
                shared += reused.compiled.filter { rule in previous.compiled.contains { $0 === rule } }.count
            } else {
                #expect(!reused.compiled.contains { rule in previous.compiled.contains { $0 === rule } })
            }
            for _ in 0..<20 {
                let url = RandomRules.url(&random)
                if reused.firstMatch(url) != fresh.firstMatch(url) && mismatches.count < 5 {
                    mismatches.append(
                        "\(url): reused \(String(describing: reused.firstMatch(url))), fresh "
                            + "\(String(describing: fresh.firstMatch(url)))")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(shared > edits * 10, "compiled rules shared: \(shared) over \(edits) edits")
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
