import Testing

@testable import RouteCore

/// Which hosts a scoped admin may create: under its apps' patterns, never under another app's pattern or
/// domain.
@Suite struct HostOwnershipTests {
    static let apps = [
        App(id: "badoo", hosts: ["*.badoo.com"]), App(id: "rt", hosts: ["*.rt.example.com", "*.example.com"]),
        App(id: "solo"),
    ]
    static let domains = [
        Domain(host: "m.badoo.com", apps: ["badoo"]), Domain(host: "shared.example.com", apps: ["badoo", "rt"]),
        Domain(host: "www.example.com", apps: [], aliasOf: "m.badoo.com"),
    ]

    static func refusal(_ host: String, _ apps: [String], aliasOf: String? = nil) -> RegistryError? {
        HostOwnership.refusal(
            Domain(host: host, apps: apps, aliasOf: aliasOf), apps: Self.apps, domains: Self.domains)
    }

    @Test func underItsPatterns() {
        #expect(Self.refusal("go.rt.example.com", ["rt"]) == nil)
        #expect(Self.refusal("rt2.example.com", ["rt"]) == nil)
    }

    @Test func outsideItsPatterns() throws {
        let error = try #require(Self.refusal("login.badoo.net", ["rt"]))
        #expect(error.code == .permissionDenied && error.fieldViolations.first?.field == "domain.host")
        #expect(error.message.contains("*.rt.example.com"))
    }

    @Test func underAnotherAppsPatternOrDomain() throws {
        let badooZone = try #require(Self.refusal("login.badoo.com", ["rt"]))
        #expect(badooZone.code == .permissionDenied)
        let under = try #require(Self.refusal("x.shared.example.com", ["rt"]))
        #expect(under.message.contains("domains/shared.example.com") && under.message.contains("apps/badoo"))
    }

    @Test func underAnAliasOfAnotherAppsDomain() throws {
        // The alias lists no app, but it serves badoo's section.
        let error = try #require(Self.refusal("x.www.example.com", ["rt"]))
        #expect(error.message.contains("domains/www.example.com") && error.message.contains("apps/badoo"))
    }

    @Test func withoutPatternsOrApps() throws {
        let none = try #require(Self.refusal("solo.example.net", ["solo"]))
        #expect(none.message.contains("--hosts") && none.message.contains("apps/solo"))
        #expect(Self.refusal("rt3.example.com", []) != nil)
    }

    @Test func anAliasNeedsThePatternsOfTheAppsItCopies() {
        // rt copying the shared domain's rules would publish badoo's section: badoo's patterns must match too.
        #expect(Self.refusal("copy.rt.example.com", ["rt"], aliasOf: "shared.example.com") != nil)
    }
}
