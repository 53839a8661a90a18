import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct LintTests {
    static let appID = "ABCDE12345.com.example.app"

    static func registry(_ routes: [Route], legacy: Bool = false, live: Bool = true) -> Registry {
        Registry(
            apps: [App(id: "app", ios: IOSConfig(appIds: [appID]))],
            domains: [Domain(host: "example.com", apps: ["app"], legacyPaths: legacy)],
            routes: ["app": routes],
            releases: [Release(app: "app", platform: .ios, version: try! Version("1.0"), state: live ? .live : .draft)])
    }

    static func open(
        _ id: String, _ path: String?, query: QueryPattern? = nil, since: String = "1.0", caseSensitive: Bool? = nil
    )
        -> Route
    {
        Route(
            id: id, pattern: URLPattern(path: path, query: query, caseSensitive: caseSensitive),
            platforms: [.ios: VersionRange(since: try! Version(since))])
    }

    func lint(_ registry: Registry) throws -> [LintFinding] {
        try #require(try Generator.generate(registry: registry).hosts["example.com"]).lint
    }

    func codes(_ findings: [LintFinding], _ code: String) -> [String?] {
        findings.filter { $0.code == code }.map(\.route)
    }

    @Test func shadowedRulesAreFound() throws {
        let findings = try lint(
            Self.registry([
                Self.open("users", "/u/*"),
                Self.open("user-photos", "/u/*/photos"),
                Self.open("users-again", "/u/*"),
                Self.open("user-query", "/u/x", query: .items(["a": "1"])),
                Self.open("upper", "/U/x"),
                Self.open("anything-insensitive", "/v/*", caseSensitive: false),
                Self.open("v-lower", "/V/a"),
                Self.open("localized", "/$(lang)/x"),
                Self.open("localized-again", "$(lang)/x/"),
                Self.open("folded-exact", "/Q/x", caseSensitive: false),
                Self.open("q-exact", "/q/X"),
                Self.open("everything", nil),
                Self.open("after-everything", "/zzz"),
            ]))
        #expect(
            codes(findings, LintCode.shadowedRule) == [
                "user-photos", "users-again", "user-query", "v-lower", "localized-again", "q-exact", "after-everything",
            ])
    }

    @Test func rulesThatOnlyLookAlikeAreNotShadowed() throws {
        let findings = try lint(
            Self.registry([
                Self.open("with-query", "/u/*", query: .items(["a": "1"])),
                Self.open("users", "/u/x"),
                Self.open("buy", "/buy/*"),
                Self.open("buyer", "/buyer"),
                Self.open("one-char", "/c/?"),
                Self.open("two-chars", "/c/ab"),
                Self.open("sensitive", "/s/*"),
                Self.open("insensitive", "/s/a", caseSensitive: false),
            ]))
        #expect(codes(findings, LintCode.shadowedRule).isEmpty)
    }

    @Test func overlappingOpenRulesWithDifferentRangesAreFound() throws {
        let findings = try lint(
            Self.registry([
                Self.open("lookalikes", "/l/a/*", since: "5.12"),
                Self.open("lists", "/l/*", since: "5.0"),
                Self.open("same-range", "/l/b/*", since: "5.0"),
                Self.open("elsewhere", "/m/*", since: "6.0"),
            ]))
        #expect(codes(findings, LintCode.overlappingOpenRanges) == ["lists"])
    }

    @Test func legacyFormReportsWhatItCannotExpress() throws {
        let registry = Self.registry(
            [
                Self.open("search", "/search", query: .string("q=*")),
                Self.open("folded", "/f/*", caseSensitive: false),
                Self.open("plain", "/p/*"),
            ], legacy: true)
        let files = try Generator.generate(registry: registry)
        let host = try #require(files.hosts["example.com"])
        #expect(codes(host.lint, LintCode.legacyUnreachable) == ["search", "folded", nil])
        #expect(host.aasaDocument.applinks.details.first?.paths == ["/p/*"])
    }

    @Test func emptyDocumentIsReported() throws {
        let findings = try lint(Self.registry([Self.open("users", "/u/*")], live: false))
        #expect(codes(findings, LintCode.emptyDocument) == [nil])
        #expect(try codes(lint(Self.registry([Self.open("users", "/u/*")])), LintCode.emptyDocument).isEmpty)
    }

    @Test func exclusionWithNothingAfterItIsLeftOut() throws {
        let files = try Generator.generate(
            registry: Self.registry([
                Self.open("users", "/u/*"), Route(id: "help", pattern: URLPattern(path: "/help/*"), action: .exclude),
            ]))
        let components = try #require(files.hosts["example.com"]?.aasaDocument.applinks.details.first?.components)
        #expect(components.map(\.path) == [nil, "/u/*"])
    }

    @Test func unhandledOpenRuleBecomesAnExclusionWhenAClaimFollows() throws {
        let files = try Generator.generate(
            registry: Self.registry([Self.open("new", "/l/a/*", since: "2.0"), Self.open("lists", "/l/*")]))
        let components = try #require(files.hosts["example.com"]?.aasaDocument.applinks.details.first?.components)
        #expect(components.map(\.path) == [nil, "/l/a/*", "/l/*"])
        #expect(components.map(\.isExclude) == [true, true, false])
    }
}
