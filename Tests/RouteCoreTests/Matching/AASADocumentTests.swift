import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct AASADocumentTests {
    private func document(_ json: String) throws -> AASADocument {
        try AASADocument(json: Data(json.utf8))
    }

    @Test(arguments: [
        ("[1]", "the document is not a JSON object"),
        ("{", "not valid JSON: line 1, column 2 (byte 1): the document ends where a member name was expected"),
        (
            "{\"applinks\": {\"details\": []},\r\n}",
            "not valid JSON: line 1, column 29 (byte 28): trailing comma before '}': JSON allows no comma after the last member"
        ),
        (#"{"applinks": []}"#, "applinks is not an object"),
        (#"{"applinks": {"details": 3}}"#, "applinks.details is neither an array nor an object"),
        (#"{"applinks": {"details": [{"appIDs": "A.b"}]}}"#, "applinks.details[0].appIDs is not an array of strings"),
        (
            #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/x", "exclude": 1}]}]}}"#,
            "applinks.details[0].components[0].exclude is not true or false"
        ),
        (
            #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": {}}]}}"#,
            "applinks.details[0].components is not an array"
        ),
        (
            #"{"applinks": {"defaults": {"caseSensitive": "no"}}}"#,
            "applinks.defaults.caseSensitive is not true or false"
        ),
        (
            #"{"applinks": {"substitutionVariables": {"v": ["a", 2]}}}"#,
            #"applinks.substitutionVariables["v"][1] is not a string"#
        ),
        (#"{"applinks": {"details": {"A.b": {"paths": [7]}}}}"#, #"applinks.details["A.b"].paths[0] is not a string"#),
    ])
    func malformedDocumentsNameTheProblem(_ json: String, _ message: String) {
        #expect(throws: AASADocumentError(message)) { try AASADocument(json: Data(json.utf8)) }
    }

    @Test func resolvesDefaultsAndKeepsRulesAsWritten() throws {
        let doc = try document(
            #"""
            {"applinks": {"defaults": {"percentEncoded": false},
              "details": [{"appIDs": ["A.b", "C.d"], "defaults": {"caseSensitive": false},
                "components": [{"/": "/x/*", "?": {"k": "v"}, "caseSensitive": true, "comment": "keep"}, {"#": "f"}]}]},
             "webcredentials": {"apps": ["A.b"]}, "appclips": {"apps": ["A.b.Clip"]}}
            """#)
        #expect(doc.details.count == 1)
        let detail = doc.details[0]
        #expect(detail.appIDs == ["A.b", "C.d"])
        #expect(!detail.isLegacy)
        #expect(detail.location == "applinks.details[0]")
        #expect(
            detail.rules == [
                ComponentRule(path: "/x/*", query: .items(["k": "v"]), caseSensitive: true, percentEncoded: false),
                ComponentRule(fragment: "f", caseSensitive: false, percentEncoded: false),
            ])
        #expect(
            detail.ruleJSON == [#"{"/":"/x/*","?":{"k":"v"},"caseSensitive":true,"comment":"keep"}"#, ##"{"#":"f"}"##])
    }

    @Test func evaluationSaysWhichRuleDecided() throws {
        let doc = try document(
            #"{"applinks": {"details": [{"appID": "A.b", "paths": ["NOT /private/*", "/*"]}]}}"#)
        let excluded = doc.evaluate(appID: "A.b", url: LinkURL("https://x.test/private/1")!, domain: "X.test.")
        #expect(excluded.outcome == .exclude)
        #expect(excluded.detailIndex == 0)
        #expect(excluded.ruleIndex == 0)
        #expect(excluded.rule == ComponentRule(path: "/private/*", exclude: true))
        #expect(excluded.ruleJSON == #""NOT /private/*""#)
        #expect(excluded.ruleLocation == "applinks.details[0].paths[0]")

        let other = doc.evaluate(appID: "A.b", url: LinkURL("badoo://x.test/1")!, domain: "x.test")
        #expect(other.outcome == .noMatch)
        #expect(other.reason == "not an http or https URL (scheme badoo)")
        #expect(
            doc.evaluate(appID: "Z.z", url: LinkURL("https://x.test/")!, domain: "x.test").reason
                == "app ID Z.z not listed in applinks")
        #expect(
            doc.evaluate(appID: "A.b", url: LinkURL("https://y.test/")!, domain: "x.test").reason
                == "host y.test differs from the domain x.test")
    }

    @Test func documentsWithoutApplinksMatchNothing() throws {
        let doc = try document(#"{"webcredentials": {"apps": ["A.b"]}}"#)
        #expect(doc.details.isEmpty)
        #expect(doc.evaluate(appID: "A.b", url: LinkURL("https://x.test/")!, domain: "x.test").outcome == .noMatch)
    }
}
