import Testing

@testable import RouteCore

/// A shared domain's AASA budget: each app's section is measured so that the sections and the shared part
/// add up to the document, and each iOS app gets an equal share of Apple's limit.
@Suite struct AASABudgetTests {
    static func registry(rtRoutes: Int, webcredentials: Bool = false) -> Registry {
        func routes(_ app: String, _ count: Int) -> [Route] {
            (0..<count).map { i in
                Route(
                    id: "\(app)-\(i)", pattern: URLPattern(path: "/\(app)/\(i)/*"),
                    platforms: [.ios: VersionRange(since: try! Version("1.0"))])
            }
        }
        return Registry(
            apps: [
                App(id: "badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"])),
                App(
                    id: "rt",
                    ios: IOSConfig(
                        appIds: ["RTRTRT1234.com.rt"], webcredentials: webcredentials,
                        appClips: ["RTRTRT1234.com.rt.Clip"])),
                App(id: "web"),
            ],
            domains: [
                Domain(
                    host: "shared.example.com", apps: ["badoo", "rt", "web"],
                    substitutionVariables: ["v": ["a", "b"]])
            ],
            routes: ["badoo": routes("badoo", 3), "rt": routes("rt", rtRoutes)],
            releases: ["badoo", "rt"].map {
                Release(app: $0, platform: .ios, version: try! Version("1.0"), state: .live)
            })
    }

    static func shares(_ registry: Registry) throws -> (shares: [AASAShare], size: Int) {
        let files = try #require(try Generator.generate(registry: registry).hosts["shared.example.com"])
        return (
            AASABudget.shares(of: files.aasaDocument, size: files.aasa.bytes.count, apps: registry.apps),
            files.aasa.bytes.count
        )
    }

    @Test func sectionsAndTheSharedPartAddUpToTheDocument() throws {
        let (small, smallSize) = try Self.shares(Self.registry(rtRoutes: 2, webcredentials: true))
        let (large, largeSize) = try Self.shares(Self.registry(rtRoutes: 40, webcredentials: true))
        // Only the apps with an iOS side have a section; they share the limit equally.
        #expect(large.map(\.app) == ["badoo", "rt"])
        #expect(large[0].share == large[1].share)
        // rt's rules grew rt's section by exactly what the document grew, and badoo's not at all.
        #expect(large[1].bytes - small[1].bytes == largeSize - smallSize)
        #expect(large[0].bytes == small[0].bytes)
        // The shared part (structure, substitution variables) is what the shares divide after the limit.
        let shared = largeSize - large.map(\.bytes).reduce(0, +)
        #expect(shared > 0 && large[0].share == (Generator.aasaSizeLimit - shared) / 2)
    }

    @Test func webcredentialsAndClipsCountForTheirApp() throws {
        let (without, _) = try Self.shares(Self.registry(rtRoutes: 2))
        let (with, _) = try Self.shares(Self.registry(rtRoutes: 2, webcredentials: true))
        #expect(with[1].bytes - without[1].bytes == "RTRTRT1234.com.rt".utf8.count + 3)
        #expect(with[0].bytes == without[0].bytes)
    }

    @Test func theRefusalNamesTheDomainTheAppItsBytesAndShare() {
        let error = AASABudget.overShare(
            AASAShare(app: "rt", bytes: 70_000, share: 65_400), host: "shared.example.com", apps: 2)
        #expect(error.code == .failedPrecondition)
        for part in ["apps/rt", "domains/shared.example.com", "70000", "65400"] {
            #expect(error.message.contains(part))
        }
    }
}
