import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct CanOpenTableTests {
    func table(_ state: BadooFixture.State, _ version: String, _ platform: Platform = .ios) throws
        -> GeneratedCanOpenTable
    {
        try #require(
            try Generator.canOpenTable(
                registry: BadooFixture.registry(state), app: "badoo", platform: platform, version: try Version(version))
        )
    }

    @Test func sharesRulesBetweenHostsAndListsSchemes() throws {
        let table = try table(.published512, "5.11.0").table
        #expect(table.rules.map(\.route) == ["help", "profile", "lookalikes", "offer"])
        #expect(table.domains.map(\.name) == ["badoo.com", "m.badoo.com"])
        #expect(table.domains.map(\.rules) == [[0, 1, 2], [0, 1, 2]])
        #expect(table.schemes == [CanOpenScope(name: "badoo", rules: [3])])
        #expect(table.rules.map(\.verdict) == [.exclude, .open, .unsupported, .open])
        #expect(table.rules[2].supportedSince == "5.12.0")
    }

    @Test func verdictsFollowTheVersion() throws {
        #expect(try table(.published512, "5.12.0").table.rules.map(\.verdict) == [.exclude, .open, .open, .open])
        #expect(try table(.switchedOff, "5.12.0").table.rules.map(\.verdict) == [.exclude, .open, .switchedOff, .open])
        #expect(
            try table(.switchedOff, "5.12.0", .android).table.rules.map(\.verdict) == [
                .exclude, .open, .open, .unsupported,
            ])
    }

    @Test func etagChangesExactlyWhenTheTableDoes() throws {
        let a = try table(.published512, "5.12.0")
        #expect(a.file == (try table(.published512, "5.12.0")).file)
        #expect(a.file.etag != (try table(.switchedOff, "5.12.0")).file.etag)
        #expect(a.file.etag == (try a.table.file()).etag)
        #expect(a.file.etag.hasPrefix("\"") && a.file.etag.count == 66)
    }

    @Test func liveVersionsGetTablesAndUnknownAppsDoNot() throws {
        let files = try Generator.generate(registry: BadooFixture.registry(.published512))
        #expect(
            Set(files.canOpenTables.keys) == [
                ReleaseKey(app: "badoo", platform: .ios, version: BadooFixture.v("5.11.0")),
                ReleaseKey(app: "badoo", platform: .ios, version: BadooFixture.v("5.12.0")),
                ReleaseKey(app: "badoo", platform: .android, version: BadooFixture.v("5.11.0")),
            ])
        #expect(
            try Generator.canOpenTable(
                registry: BadooFixture.registry(.published512), app: "nope", platform: .ios,
                version: BadooFixture.v("1"))
                == nil)
    }

    @Test func decodedTableDecidesOffline() throws {
        let bytes = try table(.published512, "5.11.0").file.bytes
        let table = try JSONDecoder().decode(CanOpenTable.self, from: bytes)
        #expect(
            table.decide(url: "https://m.badoo.com/l/a/42")
                == Decision(
                    decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
                    fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0"))
    }
}
