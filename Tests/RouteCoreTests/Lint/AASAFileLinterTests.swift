import Foundation
import Testing

@testable import RouteCore

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
}
