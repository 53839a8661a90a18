import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// The generated files of the Badoo story, byte for byte (`ROUTEREG_UPDATE_GOLDEN=1` rewrites them).
@Suite struct GoldenFileTests {
    static let cases: [(BadooFixture.State, String, String)] = BadooFixture.State.allCases.flatMap { state in
        [
            (state, "m.badoo.com", "aasa"), (state, "badoo.com", "aasa"), (state, "m.badoo.com", "assetlinks"),
        ]
    }

    @Test(arguments: cases)
    func matchesGoldenFile(_ state: BadooFixture.State, _ host: String, _ kind: String) throws {
        let files = try Generator.generate(registry: BadooFixture.registry(state))
        let host = try #require(files.hosts[host])
        let actual = kind == "aasa" ? host.aasa.bytes : host.assetlinks.bytes
        let name = "badoo-\(state.rawValue)-\(host.host).\(kind).json"
        guard let expected = try Golden.expected(name, actual: actual) else {
            #expect(Golden.updating, "golden file \(name) is missing: run with ROUTEREG_UPDATE_GOLDEN=1")
            return
        }
        #expect(
            actual == expected,
            "\(name) differs:\n\(String(decoding: actual, as: UTF8.self))\nexpected:\n\(String(decoding: expected, as: UTF8.self))"
        )
    }

    @Test func canOpenTableMatchesGoldenFile() throws {
        let files = try Generator.generate(registry: BadooFixture.registry(.published512))
        let key = ReleaseKey(app: "badoo", platform: .ios, version: BadooFixture.v("5.11.0"))
        let table = try #require(files.canOpenTables[key])
        let name = "badoo-published-5.12.0-canopen-ios-5.11.0.json"
        guard let expected = try Golden.expected(name, actual: table.file.bytes) else {
            #expect(Golden.updating, "golden file \(name) is missing: run with ROUTEREG_UPDATE_GOLDEN=1")
            return
        }
        #expect(table.file.bytes == expected)
    }
}

/// The story's steps, checked on the documents' content rather than bytes.
@Suite struct BadooStoryTests {
    func components(_ state: BadooFixture.State, host: String = "m.badoo.com") throws -> [AASAComponent] {
        let files = try Generator.generate(registry: BadooFixture.registry(state))
        return try #require(files.hosts[host]?.aasaDocument.applinks.details.first?.components)
    }

    @Test func afterFirstPublishTheAASAHasMarkerHelpAndProfileButNotLookalikes() throws {
        let components = try components(.published511)
        #expect(components.map(\.path) == [nil, "/help/*", "/u/*"])
        #expect(components[0].query == .items(["ul_fallback": "?*"]) && components[0].isExclude)
        #expect(components[1].isExclude && !components[2].isExclude)
    }

    @Test func addingARouteNoLiveVersionHandlesLeavesTheFilesUnchanged() throws {
        let before = try Generator.generate(registry: BadooFixture.registry(.published511))
        let after = try Generator.generate(registry: BadooFixture.registry(.lookalikesAdded))
        for host in ["badoo.com", "m.badoo.com"] {
            #expect(before.hosts[host]?.aasa == after.hosts[host]?.aasa)
            #expect(before.hosts[host]?.assetlinks == after.hosts[host]?.assetlinks)
        }
    }

    @Test func publishingTheNewVersionAddsLookalikesAndSwitchingOffRemovesIt() throws {
        #expect(try components(.published512).map(\.path) == [nil, "/help/*", "/u/*", "/l/a/*"])
        let off = try Generator.generate(registry: BadooFixture.registry(.switchedOff))
        let on = try Generator.generate(registry: BadooFixture.registry(.published512))
        let diff = DocumentDiff(
            from: try #require(on.hosts["m.badoo.com"]).aasaDocument,
            to: try #require(off.hosts["m.badoo.com"]).aasaDocument)
        #expect(diff.added.isEmpty && diff.changed.isEmpty)
        #expect(diff.removed.map(\.rule) == [.aasa(AASAComponent(path: "/l/a/*", comment: "route lookalikes"))])
        #expect(diff.removed.first?.app == BadooFixture.appID)
    }

    @Test func etagsAreStableAndFollowTheBytes() throws {
        let first = try Generator.generate(registry: BadooFixture.registry(.published512))
        let second = try Generator.generate(registry: BadooFixture.registry(.published512))
        let file = try #require(first.hosts["m.badoo.com"]?.aasa)
        #expect(file == second.hosts["m.badoo.com"]?.aasa)
        #expect(file.etag == "\"" + SHA256.hex(file.bytes) + "\"")
        #expect(file.etag != first.hosts["badoo.com"]?.aasa.etag)
    }

    @Test func legacyFormUsesNotForExclusions() throws {
        let files = try Generator.generate(registry: BadooFixture.registry(.published512))
        let detail = try #require(files.hosts["badoo.com"]?.aasaDocument.applinks.details.first)
        #expect(detail.appID == BadooFixture.appID)
        #expect(detail.paths == ["NOT /help/*", "/u/*", "/l/a/*"])
        #expect(files.hosts["badoo.com"]?.aasaDocument.applinks.apps == [])
        #expect(files.hosts["m.badoo.com"]?.aasaDocument.applinks.apps == nil)
    }
}
