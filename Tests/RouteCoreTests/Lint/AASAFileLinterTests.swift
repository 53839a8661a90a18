import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// `AASAFileLinter`: the shapes found in published files that iOS either ignores or documents no behaviour for,
/// each named with where it is and what RouteRegistry makes of it.
@Suite struct AASAFileLinterTests {
    private func lint(_ json: String) -> [LintFinding] { AASAFileLinter.lint(Data(json.utf8)) }

    @Test func aTrailingCommaIsAnErrorSayingWhere() {
        let findings = lint("{\"applinks\": {\"details\": []},}")
        #expect(findings.map(\.code) == [LintCode.invalidJSON])
        #expect(findings.first?.severity == .error)
        #expect(
            findings.first?.message.hasPrefix("not valid JSON: line 1, column 29 (byte 28): trailing comma") == true)
    }

    @Test func anAppIDArrayIsAnErrorThatSaysWhatToWrite() {
        // mozilla/bedrock's shape: iOS documents a string; check and import both refuse it, lint says why.
        let findings = lint(#"{"applinks": {"details": [{"appID": ["A.b", "A.c"], "components": [{"/": "/x"}]}]}}"#)
        #expect(findings.map(\.code) == [LintCode.unusableDocument])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("applinks.details[0].appID is not a string") == true)
        #expect(findings.first?.message.contains("list several apps in appIDs") == true)
    }

    @Test func ambiguousShapesAreWarnings() {
        let findings = lint(
            """
            {"applinks": {"details": [{"appIDs": ["A.b"], "appID": "A.b", "paths": ["/p/*"],
              "components": [{"/": "*", "appclip": true}, {"/": "/q", "?": {"n": 1}}]}]}}
            """)
        #expect(
            findings.map(\.code) == [
                LintCode.ambiguousShape, LintCode.ambiguousShape, LintCode.unknownKey, LintCode.pathWithoutSlash,
                LintCode.ignoredQuery,
                // "*" (read as "/*") matches every URL "/q" matches, whatever the ignored query.
                LintCode.shadowedRule,
            ])
        #expect(findings.allSatisfy { $0.severity == .warning })
        #expect(findings[3].message.contains(#"reads it as "/*""#))
    }

    @Test func repeatedAndShadowedRulesAreNamed() {
        let findings = lint(
            """
            {"applinks": {"details": [{"appIDs": ["A.b"], "components": [
              {"/": "/request/*"}, {"/": "/a/*"}, {"/": "/request/*", "comment": "again"}, {"/": "/a/b"}, {"/": "/c"}
            ]}]}}
            """)
        #expect(findings.map(\.code) == [LintCode.duplicateRule, LintCode.shadowedRule])
        #expect(
            findings[0].message.hasPrefix("applinks.details[0].components[2] repeats applinks.details[0].components[0]")
        )
        #expect(findings[1].message.hasPrefix("applinks.details[0].components[3] can never decide"))
    }

    @Test func aCleanFileHasNoFindings() {
        #expect(lint(#"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/u/*"}]}]}}"#).isEmpty)
        #expect(lint(#"{"webcredentials": {"apps": ["A.b"]}}"#).isEmpty)
    }

    @Test func detailsAnEarlierCatchAllLeavesNothingToAreNamed() {
        // instagram lists its apps again after a components detail ending with "/*"; 100ms and beeline-sg list
        // two apps that both claim "*".
        let findings = lint(
            """
            {"applinks": {"details": [
              {"appIDs": ["A.one", "A.two"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/*"}]},
              {"appID": "A.one", "paths": ["/x/*"]},
              {"appID": "B.other", "paths": ["*"]},
              {"appID": "C.late", "paths": ["/y"]},
              {"appID": "D.first", "paths": ["/d", "NOT /*"]},
              {"appID": "D.second", "paths": ["/e"]}
            ]}}
            """)
        #expect(
            findings.map(\.message) == [
                "applinks.details[1] never decides for A.one: applinks.details[0] before it decides every URL for that app",
                // details[0] excludes some URLs, so whether B.other gets them is not known: only details[2] is said
                // to claim everything.
                "applinks.details[3] (C.late) gets no link while B.other is installed: applinks.details[2] claims every URL first",
                "applinks.details[4] (D.first) gets no link while B.other is installed: applinks.details[2] claims every URL first",
                "applinks.details[5] (D.second) gets no link while B.other is installed: applinks.details[2] claims every URL first",
            ])
        // ajet's shape: an allow-list ending with "NOT /*" decides every URL for its app but claims none for others.
        let allowList = lint(
            """
            {"applinks": {"details": [{"appID": "A.one", "paths": ["/a", "NOT /*"]}, {"appID": "A.dev", "paths": ["/dev/*"]}]}}
            """)
        #expect(allowList.isEmpty)
    }
}
