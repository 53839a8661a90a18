import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// One row of the decision table: (state, platform, version, URL) → expected decision.
struct DecisionCase: Sendable, CustomTestStringConvertible {
    let state: BadooFixture.State
    let platform: Platform
    let version: String
    let url: String
    let expected: Decision
    var testDescription: String { "\(state.rawValue) \(platform.rawValue) \(version) \(url)" }
}

@Suite struct DecisionTableTests {
    static let cases: [DecisionCase] = [
        DecisionCase(
            state: .published511, platform: .ios, version: "5.11.0", url: "https://m.badoo.com/u/42",
            expected: Decision(decision: .openInApp, reason: .route, route: "profile")),
        DecisionCase(
            state: .published511, platform: .ios, version: "5.11.0", url: "https://M.BADOO.COM./u/42",
            expected: Decision(decision: .openInApp, reason: .route, route: "profile")),
        DecisionCase(
            state: .published511, platform: .ios, version: "5.11.0", url: "https://badoo.com/help/faq",
            expected: Decision(
                decision: .openInBrowser, reason: .excluded, route: "help",
                fallbackUrl: "https://badoo.com/help/faq?ul_fallback=1")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.11.0", url: "https://m.badoo.com/l/a/42",
            expected: Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
                fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12", url: "https://m.badoo.com/l/a/42",
            expected: Decision(decision: .openInApp, reason: .route, route: "lookalikes")),
        DecisionCase(
            state: .switchedOff, platform: .ios, version: "5.12.0", url: "https://m.badoo.com/l/a/42?x=1#top",
            expected: Decision(
                decision: .openInBrowser, reason: .switchedOff, route: "lookalikes",
                fallbackUrl: "https://m.badoo.com/l/a/42?x=1&ul_fallback=1#top")),
        DecisionCase(
            state: .switchedOff, platform: .android, version: "5.12.0", url: "https://m.badoo.com/l/a/42",
            expected: Decision(decision: .openInApp, reason: .route, route: "lookalikes")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "https://m.badoo.com/l/a/42?ul_fallback=1",
            expected: Decision(decision: .openInBrowser, reason: .fallbackMarker)),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "https://m.badoo.com/l/a/42?ul_fallback=",
            expected: Decision(decision: .openInApp, reason: .route, route: "lookalikes")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "https://m.badoo.com/search?q=1",
            expected: Decision(
                decision: .openInBrowser, reason: .noRoute, fallbackUrl: "https://m.badoo.com/search?q=1&ul_fallback=1")
        ),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "https://example.com/u/1",
            expected: .notAssociated),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "other://offer/1", expected: .notAssociated),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "not a url", expected: .notAssociated),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.11.0", url: "badoo://offer/7?src=push",
            expected: Decision(decision: .openInApp, reason: .route, route: "offer")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.10", url: "badoo://offer/7?src=push",
            expected: Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: "offer",
                fallbackUrl: "https://m.badoo.com/offer/7?ul_fallback=1", supportedSince: "5.11.0")),
        DecisionCase(
            state: .published512, platform: .android, version: "5.12.0", url: "badoo://offer/7",
            expected: Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: "offer",
                fallbackUrl: "https://m.badoo.com/offer/7?ul_fallback=1")),
        DecisionCase(
            state: .published512, platform: .ios, version: "5.12.0", url: "badoo://chat/1",
            expected: Decision(decision: .openInBrowser, reason: .noRoute)),
    ]

    @Test(arguments: cases)
    func engineDecides(_ row: DecisionCase) throws {
        let engine = DecisionEngine(registry: BadooFixture.registry(row.state))
        let decision = engine.decide(
            app: "badoo", platform: row.platform, version: try Version(row.version), url: row.url)
        #expect(decision == row.expected)
    }

    @Test(arguments: cases)
    func canOpenTableDecidesTheSame(_ row: DecisionCase) throws {
        let table = try #require(
            try Generator.canOpenTable(
                registry: BadooFixture.registry(row.state), app: "badoo", platform: row.platform,
                version: try Version(row.version)))
        #expect(table.table.decide(url: row.url) == row.expected)
        let decoded = try JSONDecoder().decode(CanOpenTable.self, from: table.file.bytes)
        #expect(CompiledCanOpenTable(decoded).decide(url: row.url) == row.expected)
    }

    @Test func unknownAppIsNotAssociated() {
        let engine = DecisionEngine(registry: BadooFixture.registry(.published512))
        #expect(
            engine.decide(app: "nope", platform: .ios, version: BadooFixture.v("1"), url: "https://m.badoo.com/u/1")
                == .notAssociated)
    }

    /// No Android side means assetlinks.json never names the app, so Android never hands it a web link:
    /// "not associated", not "unsupported version". Custom schemes are the app's own and still decide.
    @Test func webLinksAreNotAssociatedOnAPlatformTheAppHasNoSideOn() throws {
        var registry = BadooFixture.registry(.published512)
        registry.apps[0].android = nil
        let engine = DecisionEngine(registry: registry)
        let version = BadooFixture.v("5.12.0")
        let table = try #require(
            try Generator.canOpenTable(registry: registry, app: "badoo", platform: .android, version: version))
        let compiled = CompiledCanOpenTable(try JSONDecoder().decode(CanOpenTable.self, from: table.file.bytes))
        for url in ["https://m.badoo.com/l/a/42", "https://badoo.com/u/42", "https://m.badoo.com/search"] {
            #expect(engine.decide(app: "badoo", platform: .android, version: version, url: url) == .notAssociated)
            #expect(compiled.decide(url: url) == .notAssociated)
            #expect(engine.decide(app: "badoo", platform: .ios, version: version, url: url) != .notAssociated)
        }
        let offer = engine.decide(app: "badoo", platform: .android, version: version, url: "badoo://offer/7")
        #expect(offer.reason == .unsupportedVersion)
        #expect(compiled.decide(url: "badoo://offer/7") == offer)
    }

    @Test func versionPastUntilIsUnsupportedWithoutSupportedSince() throws {
        var registry = BadooFixture.registry(.published512)
        registry.routes["badoo"]![1].platforms[.ios] = VersionRange(
            since: BadooFixture.v("5.0"), until: BadooFixture.v("5.12"))
        let decision = DecisionEngine(registry: registry).decide(
            app: "badoo", platform: .ios, version: BadooFixture.v("5.12.0"), url: "https://m.badoo.com/u/1")
        #expect(decision.reason == .unsupportedVersion && decision.supportedSince == nil)
        #expect(decision.fallbackUrl == "https://m.badoo.com/u/1?ul_fallback=1")
    }

    @Test func aliasDomainServesTheTargetsRules() throws {
        var registry = BadooFixture.registry(.published512)
        registry.domains.append(Domain(host: "www.badoo.com", apps: [], aliasOf: "badoo.com"))
        let engine = DecisionEngine(registry: registry)
        let decision = engine.decide(
            app: "badoo", platform: .ios, version: BadooFixture.v("5.12.0"), url: "https://www.badoo.com/l/a/1")
        #expect(decision == Decision(decision: .openInApp, reason: .route, route: "lookalikes"))
        let files = try Generator.generate(registry: registry)
        #expect(
            files.hosts["www.badoo.com"]?.aasaDocument.applinks.details
                == files.hosts["badoo.com"]?.aasaDocument.applinks.details)
    }

    @Test func routeLimitedToADomainDoesNotApplyElsewhere() {
        var registry = BadooFixture.registry(.published512)
        registry.routes["badoo"]![3].domains = ["m.badoo.com"]
        let engine = DecisionEngine(registry: registry)
        let v512 = BadooFixture.v("5.12.0")
        #expect(
            engine.decide(app: "badoo", platform: .ios, version: v512, url: "https://m.badoo.com/l/a/1").reason
                == .route)
        #expect(
            engine.decide(app: "badoo", platform: .ios, version: v512, url: "https://badoo.com/l/a/1").reason
                == .noRoute)
    }

    @Test func decisionEncodesInTheWireShape() throws {
        let decision = Decision(
            decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
            fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0")
        let json = String(decoding: try CanonicalJSON.encode(decision), as: UTF8.self)
        #expect(
            json
                == #"{"decision":"open_in_browser","fallbackUrl":"https://m.badoo.com/l/a/42?ul_fallback=1","#
                + #""reason":"unsupported_version","route":"lookalikes","supportedSince":"5.12.0"}"#)
        #expect(try JSONDecoder().decode(Decision.self, from: Data(json.utf8)) == decision)
    }
}

@Suite struct FallbackURLTests {
    @Test(arguments: [
        ("https://a.com/x", "https://a.com/x?ul_fallback=1"),
        ("https://a.com/x?", "https://a.com/x?ul_fallback=1"),
        ("https://a.com/x?a=1", "https://a.com/x?a=1&ul_fallback=1"),
        ("https://a.com/x?a=1&", "https://a.com/x?a=1&ul_fallback=1"),
        ("https://a.com/x#frag", "https://a.com/x?ul_fallback=1#frag"),
        ("https://a.com/x?a=1#f?g", "https://a.com/x?a=1&ul_fallback=1#f?g"),
        ("https://a.com/x?ul_fallback=&a=1", "https://a.com/x?a=1&ul_fallback=1"),
        ("https://a.com/x?ul%5Ffallback=0", "https://a.com/x?ul_fallback=1"),
    ])
    func appendsTheMarker(_ url: String, _ expected: String) {
        #expect(FallbackURL.make(url, policy: FallbackPolicy()) == expected)
    }

    /// A URL whose marker is empty is not a fallback, and its fallback URL must carry a real marker, or
    /// iOS would reopen the app from the browser forever.
    @Test func fallbackFromAnEmptyMarkerIsRecognisedAsAFallback() throws {
        let engine = DecisionEngine(registry: BadooFixture.registry(.published512))
        let first = engine.decide(
            app: "badoo", platform: .ios, version: BadooFixture.v("5.11.0"),
            url: "https://m.badoo.com/l/a/1?ul_fallback=")
        #expect(first.reason == .unsupportedVersion)
        let fallback = try #require(first.fallbackUrl)
        let again = engine.decide(app: "badoo", platform: .ios, version: BadooFixture.v("5.11.0"), url: fallback)
        #expect(again.reason == .fallbackMarker)
    }

    @Test func usesTheConfiguredMarker() {
        #expect(
            FallbackURL.make("https://a.com/x", policy: FallbackPolicy(queryItem: "web", value: "yes"))
                == "https://a.com/x?web=yes")
    }
}
