import Testing

@testable import RouteMatching

@Suite struct RuleSetTests {
    private func url(_ text: String) -> LinkURL { LinkURL(text)! }

    @Test func firstMatchingRuleDecidesAndExcludeReportsExclude() {
        let rules = RuleSet(rules: [
            ComponentRule(query: .items(["ul_fallback": "?*"]), exclude: true),
            ComponentRule(path: "/help/*", exclude: true),
            ComponentRule(path: "/*"),
        ])
        #expect(rules.firstMatch(url("https://x.test/help/1")) == 1)
        #expect(rules.rules[1].exclude)
        #expect(rules.firstMatch(url("https://x.test/u/1")) == 2)
        #expect(!rules.rules[2].exclude)
        #expect(rules.firstMatch(url("https://x.test/u/1?ul_fallback=1")) == 0)
        #expect(rules.rules[0].exclude)
        #expect(rules.firstMatch(url("https://x.test/u/1?ul_fallback=")) == 2)
    }

    @Test func emptyRuleSetMatchesNothing() {
        let rules = RuleSet(rules: [])
        #expect(rules.firstMatch(url("https://x.test/")) == nil)
    }

    @Test func ruleWithoutComponentsMatchesEverything() {
        let rules = RuleSet(rules: [ComponentRule(path: "/a"), ComponentRule()])
        #expect(rules.firstMatch(url("https://x.test/zzz?q#f")) == 1)
        #expect(rules.firstMatch(url("https://x.test/a/")) == 0)
    }

    @Test func userVariablesWithWildcardsAndCaseFolding() {
        let rules = RuleSet(
            rules: [
                ComponentRule(path: "/$(section)/$(digit)*"),
                ComponentRule(path: "/$(region)/$(section)", caseSensitive: false),
            ],
            substitutionVariables: ["section": ["news", "sport*", "Blog"]])
        #expect(rules.firstMatch(url("https://x.test/sports/7/x")) == 0)
        #expect(rules.firstMatch(url("https://x.test/news/x")) == nil)
        #expect(rules.firstMatch(url("https://x.test/gb/blog")) == 1)
        #expect(rules.firstMatch(url("https://x.test/uk/blog")) == nil)
    }

    @Test func fragmentAndQueryFormsFollowTheRuleOptions() {
        let rules = RuleSet(rules: [
            ComponentRule(query: .string("Q=A%20B"), caseSensitive: false),
            ComponentRule(fragment: "a b", percentEncoded: false),
        ])
        #expect(rules.firstMatch(url("https://x.test/?q=a%20b")) == 0)
        #expect(rules.firstMatch(url("https://x.test/#a%20b")) == 1)
        #expect(rules.firstMatch(url("https://x.test/#a%20B")) == nil)
    }

    /// Rules sharing one long literal prefix all end up at one trie node: the merge must still return the
    /// earliest matching one, not the first of that node.
    @Test func manyRulesSharingAPrefixKeepRuleOrder() {
        var list: [ComponentRule] = (0..<500).map { ComponentRule(path: "/shop/item\($0)/*") }
        list.insert(ComponentRule(path: "/shop/*/special"), at: 250)
        list.append(ComponentRule(path: "/shop/*"))
        let rules = RuleSet(rules: list)
        #expect(rules.firstMatch(url("https://x.test/shop/item7/special")) == 7)
        #expect(rules.firstMatch(url("https://x.test/shop/item300/x")) == 301)
        #expect(rules.firstMatch(url("https://x.test/shop/other/special")) == 250)
        #expect(rules.firstMatch(url("https://x.test/shop/other")) == 501)
    }
}
