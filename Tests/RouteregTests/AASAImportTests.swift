import Foundation
import RouteCore
import Testing

@testable import routereg

@Suite("AASA import")
struct AASAImportTests {
    let file = """
        {
          "applinks": {
            "defaults": {"caseSensitive": false},
            "substitutionVariables": {"food": ["pizza"]},
            "details": [
              {"appIDs": ["OTHER12345.com.other"], "components": [{"/": "/x/*"}]},
              {"appIDs": ["ABCDE12345.com.badoo.Badoo"], "components": [
                {"?": {"ul_fallback": "?*"}, "exclude": true, "comment": "fallback marker"},
                {"/": "/help/*", "exclude": true},
                {"/": "/u/*", "comment": "profiles", "caseSensitive": true},
                {"/": "/$(food)/*", "#": "top"},
                {"/": "/q/*", "?": {"n": 5}},
                {"/": "/o/*", "appclip": true}
              ]}
            ]
          },
          "webcredentials": {"apps": ["ABCDE12345.com.badoo.Badoo"]}
        }
        """

    func plan(_ text: String, appIDs: [String] = ["ABCDE12345.com.badoo.Badoo"]) throws -> AASAImport.Plan {
        try AASAImport.makePlan(
            Data(text.utf8), appIDs: appIDs, fallback: FallbackPolicy(),
            ranges: [.ios: VersionRange(since: try Version("5.0"))], prefix: "imported")
    }

    @Test func rulesBecomeRoutesInOrderWithDefaultsFolded() throws {
        let plan = try plan(file)
        let since = VersionRange(since: try Version("5.0"))
        #expect(
            plan.routes == [
                Route(id: "imported-1", pattern: URLPattern(path: "/help/*", caseSensitive: false), action: .exclude),
                Route(
                    id: "imported-2", pattern: URLPattern(path: "/u/*", caseSensitive: true), platforms: [.ios: since],
                    comment: "profiles"),
                Route(
                    id: "imported-3", pattern: URLPattern(path: "/$(food)/*", fragment: "top", caseSensitive: false),
                    platforms: [.ios: since]),
                // iOS ignores a query dictionary holding a non-string value, so the rule matches any query.
                Route(
                    id: "imported-4", pattern: URLPattern(path: "/q/*", caseSensitive: false), platforms: [.ios: since]),
                Route(
                    id: "imported-5", pattern: URLPattern(path: "/o/*", caseSensitive: false), platforms: [.ios: since]),
            ])
    }

    @Test func whatCannotBeRepresentedIsReported() throws {
        #expect(
            try plan(file).notes == [
                "webcredentials: not a universal-links section; declare it on the app (routereg app update)",
                "substitutionVariables: define them on the domain (routereg domain add --substitution-variable NAME=V1,V2); "
                    + "rules using them are imported as written",
                "details entry for OTHER12345.com.other: another app's; import it into that app",
                "rule 1: the fallback-marker exclusion; RouteRegistry generates it first in every AASA",
                "rule 4: uses substitution variables: define them on the domain",
                "rule 5: \"?\" is neither a string nor a dictionary of strings; iOS ignores it, and so does the route",
                "rule 6: key \"appclip\" is not supported and was left out",
            ])
    }

    @Test func legacyPathsImportWithNOTAsExclude() throws {
        let legacy = #"{"applinks": {"apps": [], "details": [{"appID": "T.b", "paths": ["NOT /help/*", "/u/*"]}]}}"#
        let plan = try plan(legacy, appIDs: ["T.b"])
        #expect(plan.routes.map(\.action) == [.exclude, .open])
        #expect(plan.routes.map(\.pattern.path) == ["/help/*", "/u/*"])
    }

    @Test func notAnAASAFileOrNoEntryForTheAppIsAFailure() throws {
        #expect(throws: CommandFailure.self) { try plan("[]") }
        #expect(throws: CommandFailure.self) { try plan(file, appIDs: ["NOPE.x"]) }
    }
    @Test func refusesWhatAASACheckRefusesWithTheSameReason() throws {
        let trailingComma = """
            {"applinks": {"details": [{"appIDs": ["T.b"], "components": [{"/": "/u/*"},]}]}}
            """
        #expect {
            try plan(trailingComma, appIDs: ["T.b"])
        } throws: { error in
            "\(error)".contains("line 1, column 75 (byte 74): trailing comma before ']'")
        }
        let appIDArray = #"{"applinks": {"details": [{"appID": ["T.b", "T.c"], "components": [{"/": "/u/*"}]}]}}"#
        #expect {
            try plan(appIDArray, appIDs: ["T.b"])
        } throws: { error in
            "\(error)" == "is not a usable AASA file: applinks.details[0].appID is not a string"
        }
    }

    @Test func everyDetailListingTheAppIsImportedInOrder() throws {
        // iOS reads every details entry that lists the app, one after the other (instagram's file has three).
        let file = """
            {"applinks": {"details": [
                {"appIDs": ["T.b"], "components": [{"/": "/a/*"}]},
                {"appIDs": ["O.x"], "components": [{"/": "/x/*"}]},
                {"appID": "T.b", "paths": ["NOT /b/private", "/b/*"]}
            ]}}
            """
        let plan = try plan(file, appIDs: ["T.b"])
        #expect(plan.routes.map(\.pattern.path) == ["/a/*", "/b/private", "/b/*"])
        #expect(plan.routes.map(\.action) == [.open, .exclude, .open])
        #expect(plan.notes == ["details entry for O.x: another app's; import it into that app"])
    }

    @Test func detailDefaultsApplyAndLegacyPathsKeepTheirFixedOptions() throws {
        let file = """
            {"applinks": {"defaults": {"caseSensitive": false}, "details": [
                {"appIDs": ["T.b"], "defaults": {"percentEncoded": false}, "components": [{"/": "/a/*"}]},
                {"appID": "T.b", "paths": ["/b/*"]}
            ]}}
            """
        let routes = try plan(file, appIDs: ["T.b"]).routes
        #expect(routes[0].pattern == URLPattern(path: "/a/*", caseSensitive: false, percentEncoded: false))
        // Legacy paths predate defaults: case-sensitive and as written, whatever the defaults say.
        #expect(routes[1].pattern == URLPattern(path: "/b/*"))
    }
}
