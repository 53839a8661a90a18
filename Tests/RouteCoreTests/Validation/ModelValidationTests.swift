import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct ModelValidationTests {
    func field(_ body: () throws(RegistryError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            #expect(error.code == .invalidArgument)
            return error.fieldViolations.first?.field
        }
    }

    @Test(arguments: ["badoo", "a", "app-2", String(repeating: "a", count: 63)])
    func acceptsIDs(_ id: String) {
        #expect(field { () throws(RegistryError) in try ModelValidation.id(id, field: "app.id") } == nil)
    }

    @Test(arguments: ["", "Badoo", "1app", "-a", "a_b", "a b", String(repeating: "a", count: 64)])
    func refusesIDs(_ id: String) {
        #expect(field { () throws(RegistryError) in try ModelValidation.id(id, field: "app.id") } == "app.id")
    }

    @Test(arguments: ["badoo.com", "m.badoo.com", "a-b.example.co.uk", "xn--80ak6aa92e.com"])
    func acceptsHosts(_ host: String) {
        #expect(field { () throws(RegistryError) in try ModelValidation.host(host, field: "domain.host") } == nil)
    }

    @Test(arguments: [
        "", "localhost", "Badoo.com", "badoo.com.", "badoo.com:443", "https://badoo.com", "-a.com", "a..com", "a_b.com",
    ])
    func refusesHosts(_ host: String) {
        #expect(
            field { () throws(RegistryError) in try ModelValidation.host(host, field: "domain.host") } == "domain.host")
    }

    @Test func checksAppIDsAndFingerprints() {
        let good = (0..<32).map { _ in "AB" }.joined(separator: ":")
        #expect(
            field { () throws(RegistryError) in try ModelValidation.appID("ABCDE12345.com.badoo.Badoo", field: "f") }
                == nil)
        for bad in ["abcde12345.com.badoo", "ABCDE1234.com.badoo", "ABCDE12345", "ABCDE12345.", "ABCDE12345.com badoo"]
        {
            #expect(field { () throws(RegistryError) in try ModelValidation.appID(bad, field: "f") } == "f", "\(bad)")
        }
        #expect(field { () throws(RegistryError) in try ModelValidation.fingerprint(good, field: "f") } == nil)
        for bad in [
            good.lowercased(), String(good.dropLast(3)), good + ":AB", good.replacingOccurrences(of: ":", with: ""),
        ] {
            #expect(field { () throws(RegistryError) in try ModelValidation.fingerprint(bad, field: "f") } == "f")
        }
    }

    @Test func reportsTheFieldPathOfAnApp() {
        var app = BadooFixture.app
        #expect(field { () throws(RegistryError) in try ModelValidation.app(app) } == nil)
        app.ios = IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo", "bad"])
        #expect(field { () throws(RegistryError) in try ModelValidation.app(app) } == "app.ios.appIds[1]")
        app = BadooFixture.app
        app.android?.sha256CertFingerprints = ["nope"]
        #expect(
            field { () throws(RegistryError) in try ModelValidation.app(app) }
                == "app.android.sha256CertFingerprints[0]")
        app = BadooFixture.app
        app.schemes = ["https"]
        #expect(field { () throws(RegistryError) in try ModelValidation.app(app) } == "app.schemes[0]")
        app = BadooFixture.app
        app.fallback = FallbackPolicy(queryItem: "ul_fallback", value: "")
        #expect(field { () throws(RegistryError) in try ModelValidation.app(app) } == "app.fallback.value")
        app.android?.packageName = "mobile"
        #expect(field { () throws(RegistryError) in try ModelValidation.app(app) } == "app.android.packageName")
    }

    @Test func reportsTheFieldPathOfARoute() throws {
        for route in BadooFixture.routes(lookalikes: true, switchedOff: true) {
            #expect(field { () throws(RegistryError) in try ModelValidation.route(route) } == nil, "\(route.id)")
        }
        let v5 = try Version("5")
        let cases: [(Route, String)] = [
            (Route(id: "r", pattern: URLPattern(path: "/a/$(lang")), "route.pattern.path"),
            (Route(id: "r", pattern: URLPattern(path: "/a/$()")), "route.pattern.path"),
            (Route(id: "r", pattern: URLPattern(path: "/a\n")), "route.pattern.path"),
            (Route(id: "r", pattern: URLPattern(query: .items(["": "x"]))), "route.pattern.query"),
            (Route(id: "r", pattern: URLPattern(query: .items(["q": "$("]))), "route.pattern.query.q"),
            (
                Route(
                    id: "r", pattern: URLPattern(path: "/x"), action: .exclude,
                    platforms: [.ios: VersionRange(since: v5)]),
                "route.platforms"
            ),
            (
                Route(
                    id: "r", pattern: URLPattern(path: "/x"), platforms: [.android: VersionRange(since: v5, until: v5)]),
                "route.platforms.android.until"
            ),
            (Route(id: "r", pattern: URLPattern(path: "/x"), domains: ["Bad.com"]), "route.domains[0]"),
            (Route(id: "r", pattern: URLPattern(path: "/x"), webFallback: "https://a.com"), "route.webFallback"),
            (
                Route(id: "r", pattern: URLPattern(scheme: "badoo", path: "/x"), webFallback: "ftp://a"),
                "route.webFallback"
            ),
            (Route(id: "R", pattern: URLPattern(path: "/x")), "route.id"),
        ]
        for (route, expected) in cases {
            #expect(field { () throws(RegistryError) in try ModelValidation.route(route) } == expected)
        }
    }

    @Test func reportsTheFieldPathOfADomain() {
        #expect(
            field { () throws(RegistryError) in try ModelValidation.domain(Domain(host: "badoo.com", apps: ["badoo"])) }
                == nil)
        #expect(
            field { () throws(RegistryError) in
                try ModelValidation.domain(Domain(host: "a.com", apps: [], aliasOf: "a.com"))
            }
                == "domain.aliasOf")
        #expect(
            field { () throws(RegistryError) in
                try ModelValidation.domain(Domain(host: "a.com", apps: [], substitutionVariables: ["food": []]))
            } == "domain.substitutionVariables.food")
    }
}
