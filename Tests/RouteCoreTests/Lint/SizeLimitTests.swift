import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// Apple's 128 KB limit: lint near it, compact above it, fail clearly when compaction is not enough.
@Suite struct SizeLimitTests {
    /// `count` distinct routes `/p/NNNNN/*`, plus, after each, `shadowed` routes it covers.
    static func registry(count: Int, shadowed: Int = 0) -> Registry {
        var routes: [Route] = []
        for i in 0..<count {
            let base = String(100_000 + i).dropFirst()
            routes.append(LintTests.open("p\(base)", "/p/\(base)/*"))
            for s in 0..<shadowed { routes.append(LintTests.open("p\(base)-\(s)", "/p/\(base)/s\(s)")) }
        }
        return LintTests.registry(routes)
    }

    static func size(_ registry: Registry) throws -> Int {
        try #require(try Generator.generate(registry: registry).hosts["example.com"]).aasa.bytes.count
    }

    @Test func nearTheLimitIsAWarning() throws {
        let one = try Self.size(Self.registry(count: 1))
        let perRoute = try Self.size(Self.registry(count: 2)) - one
        let count = (Generator.aasaSizeLimit * 95 / 100 - one) / perRoute
        let files = try Generator.generate(registry: Self.registry(count: count))
        let host = try #require(files.hosts["example.com"])
        #expect(host.aasa.bytes.count > Generator.aasaSizeLimit * 9 / 10)
        #expect(host.aasa.bytes.count <= Generator.aasaSizeLimit)
        #expect(host.lint.contains { $0.code == LintCode.sizeNearLimit })
        #expect(!host.lint.contains { $0.code == LintCode.compacted })
    }

    @Test func aDocumentOverTheLimitIsCompactedWithoutChangingDecisions() throws {
        let registry = Self.registry(count: 1200, shadowed: 2)
        let index = RegistryIndex(registry)
        let (original, _) = try #require(AASAGenerator(index: index).document(host: "example.com"))
        let originalBytes = try CanonicalJSON.encode(original)
        #expect(originalBytes.count > Generator.aasaSizeLimit)

        let host = try #require(try Generator.generate(registry: registry).hosts["example.com"])
        #expect(host.aasa.bytes.count <= Generator.aasaSizeLimit)
        #expect(host.lint.contains { $0.code == LintCode.compacted })
        #expect(host.aasaDocument.applinks.details[0].components?.count == 1201)

        let before = try AASADocument(json: originalBytes)
        let after = try AASADocument(json: host.aasa.bytes)
        for url in [
            "https://example.com/p/00007/s1", "https://example.com/p/01199/x", "https://example.com/q/1",
            "https://example.com/p/00003/s0?ul_fallback=1",
        ] {
            let link = try #require(LinkURL(url))
            #expect(
                before.evaluate(appID: LintTests.appID, url: link, domain: "example.com").outcome
                    == after.evaluate(appID: LintTests.appID, url: link, domain: "example.com").outcome)
        }
    }

    @Test func aDocumentTooLargeEvenCompactedFailsThePublish() throws {
        let error = #expect(throws: RegistryError.self) {
            try Generator.generate(registry: Self.registry(count: 8000))
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("131072 bytes") == true)
        #expect(error?.message.contains("example.com") == true)
    }

    @Test func compactionDropsCommentsOnlyWhenNeeded() throws {
        let file = AASAFile(
            applinks: AASAAppLinks(details: [
                AASADetail(
                    appIDs: [LintTests.appID],
                    components: [
                        AASAComponent(path: "/a/*", comment: "route a"),
                        AASAComponent(path: "/a/b", comment: "route b"),
                        AASAComponent(path: "/a/*", comment: "route a2"),
                        AASAComponent(path: "/x", exclude: true, comment: "route x"),
                    ])
            ]))
        let compacted = Compactor.dropUnreachable(file)
        #expect(compacted.applinks.details[0].components == [AASAComponent(path: "/a/*", comment: "route a")])
        #expect(Compactor.withoutComments(compacted).applinks.details[0].components == [AASAComponent(path: "/a/*")])
        let original = try CanonicalJSON.encode(file)
        #expect(Compactor.equivalent(original, try CanonicalJSON.encode(compacted), file: file, host: "example.com"))
        var wrong = compacted
        wrong.applinks.details[0].components = [AASAComponent(path: "/a/b")]
        #expect(!Compactor.equivalent(original, try CanonicalJSON.encode(wrong), file: file, host: "example.com"))
    }
}
