@testable import RouteMatching

/// Random rules and URLs over a deliberately small alphabet, so prefixes collide, wildcards overlap and
/// every form (case, encoding, query items, variables) meets every other often.
enum RandomRules {
    static let variables: [String: [String]] = ["v": ["a", "ab", "*b"], "w": ["A/", "?"]]

    private static let patternPieces = [
        "a", "b", "A", "/", "/", "/a", "/b", "/ab", "/a/b", "ab", "%2F", "%61", "*", "?", "?*", "$(digit)", "$(v)",
        "$(w)", "$(lang)", "$(upper)", "1", "\u{e9}", "/b", "/a", "b", "a",
    ]
    private static let subjectPieces = [
        "a", "b", "A", "/", "//", "/a", "/b", "%2F", "%61", "%C3%A9", "1", "en", "\u{e9}",
    ]
    private static let queryPieces = ["a=1", "b=2", "a=", "a", "A=1", "a=b", "b=%61", "&", "ul=1"]

    static func pattern(_ random: inout SeededRandom, pieces: [String]? = nil, maxPieces: Int = 5) -> String {
        let pieces = pieces ?? patternPieces
        return (0..<Int.random(in: 0...maxPieces, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    static func rule(_ random: inout SeededRandom) -> ComponentRule {
        var rule = ComponentRule()
        if Int.random(in: 0..<10, using: &random) < 9 { rule.path = pattern(&random) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: rule.query = .string(pattern(&random, pieces: ["a=1", "*", "?", "&", "b", "=", "$(v)"]))
        case 1, 2:
            var items: [String: String] = [:]
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                items[["a", "b", "A", "ul"].randomElement(using: &random)!] = pattern(
                    &random, pieces: ["1", "2", "*", "?", "?*", "a", "$(digit)", "%61"], maxPieces: 2)
            }
            rule.query = .items(items)
        default: break
        }
        if Int.random(in: 0..<10, using: &random) == 0 { rule.fragment = pattern(&random, pieces: ["x", "*", "?"]) }
        rule.exclude = Bool.random(using: &random)
        rule.caseSensitive = Int.random(in: 0..<4, using: &random) != 0
        rule.percentEncoded = Int.random(in: 0..<4, using: &random) != 0
        return rule
    }

    static func url(_ random: inout SeededRandom) -> LinkURL {
        var text = "https://example.com/"
        text += pattern(&random, pieces: subjectPieces, maxPieces: 6)
        if Bool.random(using: &random) {
            text += "?" + pattern(&random, pieces: queryPieces, maxPieces: 3)
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            text += "#" + pattern(&random, pieces: ["x", "y"], maxPieces: 2)
        }
        return LinkURL(text)!
    }
}
