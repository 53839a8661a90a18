import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// Sections and options of the generated AASA beyond the Badoo story.
@Suite struct AASASectionsTests {
    static let one = "ABCDE12345.com.example.one"
    static let two = "ABCDE12345.com.example.two"
    static let clip = "ABCDE12345.com.example.one.Clip"

    static func registry() -> Registry {
        let v1 = try! Version("1")
        return Registry(
            apps: [
                App(
                    id: "one", ios: IOSConfig(appIds: [one, two], webcredentials: true, appClips: [clip]),
                    defaults: MatchDefaults(caseSensitive: false)),
                App(id: "droid", android: AndroidConfig(packageName: "com.example.droid", sha256CertFingerprints: [])),
                App(
                    id: "other", ios: IOSConfig(appIds: ["ZZZZZ99999.com.other"]),
                    fallback: FallbackPolicy(queryItem: "web")),
            ],
            domains: [
                Domain(
                    host: "example.com", apps: ["one", "droid", "other"],
                    defaults: MatchDefaults(percentEncoded: false),
                    substitutionVariables: ["food": ["pizza", "taco*"]], legacyPaths: true)
            ],
            routes: [
                "one": [
                    Route(
                        id: "menu", pattern: URLPattern(path: "/$(lang)_$(region)/$(food)/*"),
                        platforms: [.ios: VersionRange(since: v1)]),
                    Route(
                        id: "exact", pattern: URLPattern(path: "/Exact", caseSensitive: true),
                        platforms: [.ios: VersionRange(since: v1)]),
                ],
                "other": [
                    Route(id: "all", pattern: URLPattern(path: "/o/*"), platforms: [.ios: VersionRange(since: v1)])
                ],
            ],
            releases: [
                Release(app: "one", platform: .ios, version: v1, state: .live),
                Release(app: "other", platform: .ios, version: v1, state: .live),
            ])
    }

    @Test func writesSectionsDefaultsAndVariables() throws {
        let files = try Generator.generate(registry: Self.registry())
        let document = try #require(files.hosts["example.com"]).aasaDocument
        #expect(document.webcredentials == AASAAppList(apps: [Self.one, Self.two]))
        #expect(document.appclips == AASAAppList(apps: [Self.clip]))
        #expect(document.applinks.defaults == MatchDefaults(percentEncoded: false))
        #expect(document.applinks.substitutionVariables == ["food": ["pizza", "taco*"]])
        let details = document.applinks.details
        #expect(details.map(\.appIDs) == [[Self.one, Self.two], ["ZZZZZ99999.com.other"], nil, nil])
        // Two app IDs cannot share one legacy entry: each gets its own after the modern entries.
        #expect(details.map(\.appID) == [nil, "ZZZZZ99999.com.other", Self.one, Self.two])
        #expect(details[0].components?.map(\.caseSensitive) == [nil, false, true])
        #expect(details[1].components?.first?.query == .items(["web": "?*"]))
    }

    @Test func generatedDocumentDecidesLikeTheEngine() throws {
        let registry = Self.registry()
        let files = try Generator.generate(registry: registry)
        let document = try AASADocument(json: try #require(files.hosts["example.com"]).aasa.bytes)
        let engine = DecisionEngine(registry: registry)
        let v1 = try Version("1")
        let cases: [(String, String, Bool)] = [
            ("one", "https://example.com/en_GB/pizza/1", true),
            ("one", "https://example.com/EN_gb/tacos/1", true),
            ("one", "https://example.com/en_UK/pizza/1", false),
            ("one", "https://example.com/en_GB/sushi/1", false),
            ("one", "https://example.com/exact", false),
            ("one", "https://example.com/Exact", true),
            ("other", "https://example.com/o/1?web=1", false),
            ("other", "https://example.com/o/1?ul_fallback=1", true),
        ]
        for (app, url, opens) in cases {
            let decision = engine.decide(app: app, platform: .ios, version: v1, url: url)
            #expect((decision.decision == .openInApp) == opens, "\(app) \(url)")
            let appID = app == "one" ? Self.two : "ZZZZZ99999.com.other"
            let link = try #require(LinkURL(url))
            #expect(
                (document.evaluate(appID: appID, url: link, domain: "example.com").outcome == .match) == opens, "\(url)"
            )
        }
    }

    @Test func assetLinksTranslatesWhatAndroidCanExpress() throws {
        let v1 = try Version("1")
        let app = App(id: "droid", android: AndroidConfig(packageName: "com.example.droid", sha256CertFingerprints: []))
        let routes = [
            Route(
                id: "dict", pattern: URLPattern(path: "/d", query: .items(["a": "1"])),
                platforms: [.android: VersionRange(since: v1)]),
            Route(
                id: "string", pattern: URLPattern(path: "/s", query: .string("a=1&b=*")),
                platforms: [.android: VersionRange(since: v1)]),
            Route(
                id: "opaque", pattern: URLPattern(path: "/o", query: .string("*x*")),
                platforms: [.android: VersionRange(since: v1)]),
            Route(id: "lazy", pattern: URLPattern(path: "/l/*/edit"), platforms: [.android: VersionRange(since: v1)]),
            Route(id: "vars", pattern: URLPattern(path: "/$(lang)/*"), platforms: [.android: VersionRange(since: v1)]),
            Route(id: "ios-only", pattern: URLPattern(path: "/i/*"), platforms: [.ios: VersionRange(since: v1)]),
        ]
        let registry = Registry(
            apps: [app], domains: [Domain(host: "example.com", apps: ["droid"])], routes: ["droid": routes],
            releases: [Release(app: "droid", platform: .android, version: v1, state: .live)])
        let host = try #require(try Generator.generate(registry: registry).hosts["example.com"])
        let statements = try JSONDecoder().decode([AssetLinksStatement].self, from: host.assetlinks.bytes)
        let components = try #require(statements.first?.relationExtensions?[AssetLinksGenerator.handleAllURLs])
            .dynamicAppLinkComponents
        #expect(components.map(\.path) == [nil, "/d", "/s", "/l/*/edit"])
        #expect(components.map(\.query) == [["ul_fallback": "?*"], ["a": "1"], ["a": "1", "b": "*"], nil])
        let android = host.lint.filter { $0.code == LintCode.androidUnexpressible }.map(\.route)
        #expect(android == ["string", "opaque", "lazy", "vars"])
        #expect(try #require(statements.first).target.packageName == "com.example.droid")
    }
}
