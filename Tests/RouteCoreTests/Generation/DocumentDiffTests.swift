import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct DocumentDiffTests {
    static let appID = "ABCDE12345.com.example.app"

    static func file(_ components: [AASAComponent], paths: [String]? = nil) -> AASAFile {
        AASAFile(
            applinks: AASAAppLinks(details: [
                AASADetail(appIDs: [appID], components: components, appID: paths == nil ? nil : appID, paths: paths)
            ]))
    }

    @Test func reportsAddedRemovedAndChangedRulesByRoute() throws {
        let before = Self.file([
            AASAComponent(path: "/a/*", comment: "route a"),
            AASAComponent(path: "/b/*", comment: "route b"),
            AASAComponent(path: "/c/*", comment: "route c"),
        ])
        let after = Self.file([
            AASAComponent(path: "/new/*", comment: "route new"),
            AASAComponent(path: "/a/*", comment: "route a"),
            AASAComponent(path: "/b/*", exclude: true, comment: "route b"),
        ])
        let diff = try DocumentDiff(from: CanonicalJSON.encode(before), to: CanonicalJSON.encode(after))
        #expect(
            diff.added == [
                DocumentDiff.Rule(app: Self.appID, index: 0, rule: .aasa(after.applinks.details[0].components![0]))
            ])
        #expect(diff.removed.map(\.rule) == [.aasa(AASAComponent(path: "/c/*", comment: "route c"))])
        #expect(diff.changed.count == 1)
        #expect(diff.changed.first?.before.rule == .aasa(AASAComponent(path: "/b/*", comment: "route b")))
        #expect(diff.changed.first?.after.index == 2)
        #expect(DocumentDiff(from: before, to: before).isEmpty)
    }

    @Test func rulesWithoutCommentsAreIdentifiedByContent() {
        let before = Self.file([AASAComponent(path: "/a/*"), AASAComponent(path: "/a/*"), AASAComponent(path: "/b")])
        let after = Self.file([AASAComponent(path: "/a/*"), AASAComponent(path: "/b")])
        let diff = DocumentDiff(from: before, to: after)
        #expect(diff.added.isEmpty && diff.changed.isEmpty)
        #expect(diff.removed.map(\.index) == [1])
    }

    @Test func legacyPathsAndAssetLinksAreDiffedToo() throws {
        let diff = DocumentDiff(
            from: Self.file([], paths: ["NOT /help/*", "/u/*"]), to: Self.file([], paths: ["/u/*", "/l/a/*"]))
        #expect(diff.added.map(\.rule) == [.path("/l/a/*")])
        #expect(diff.removed.map(\.rule) == [.path("NOT /help/*")])

        let on = try Generator.generate(registry: BadooFixture.registry(.published511))
        var registry = BadooFixture.registry(.published511)
        registry.releases.append(
            Release(app: "badoo", platform: .android, version: BadooFixture.v("5.12.0"), state: .live))
        registry.routes["badoo"]![1].pattern.path = "/user/*"
        let off = try Generator.generate(registry: registry)
        let assetDiff = try DocumentDiff(
            from: #require(on.hosts["m.badoo.com"]).assetlinks.bytes,
            to: #require(off.hosts["m.badoo.com"]).assetlinks.bytes,
            assetlinks: true)
        #expect(assetDiff.changed.map(\.after.app) == ["com.badoo.mobile"])
        let json = String(decoding: try CanonicalJSON.encode(assetDiff), as: UTF8.self)
        #expect(
            json.contains(
                #""after":{"app":"com.badoo.mobile","index":2,"rule":{"/":"/user/*","comments":"route profile"}}"#))
    }
}
