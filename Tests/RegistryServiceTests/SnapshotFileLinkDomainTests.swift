import Foundation
import RouteCore
import Testing

@testable import RegistryService

/// A link domain's settings survive the snapshot file (what a start without the database serves), and a file
/// written before `longLinkPreviews` existed reads back with previews off.
@Suite struct SnapshotFileLinkDomainTests {
    static let registry = Registry(
        apps: [App(id: "badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]))],
        domains: [
            Domain(host: "go.badoo.com", apps: ["badoo"], links: true, longLinkPreviews: true),
            Domain(host: "l.badoo.com", apps: ["badoo"], links: true),
        ], routes: [:], releases: [])

    static func load(_ data: Data) throws -> Snapshot? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        return SnapshotFile.load(from: url)
    }

    @Test func longLinkPreviewsReadBack() throws {
        let snapshot = Snapshot(
            registry: Self.registry, documents: [:], tokens: [:], generation: 3,
            builtAt: Date(timeIntervalSince1970: 1_700_000_000))
        let data = try SnapshotFileEncoder().encode(snapshot)
        let loaded = try #require(try Self.load(data))
        #expect(loaded.registry.domains.map(\.longLinkPreviews) == [true, nil])
        #expect(loaded.registry == snapshot.registry)

        // An older server's file has no such key: previews are off.
        // The encoder's key order is not fixed, so the key is removed from the parsed file, not from its text.
        let older = try Self.removingLongLinkPreviews(from: data)
        #expect(older != data)
        #expect(!String(decoding: older, as: UTF8.self).contains("longLinkPreviews"))
        let fromOlder = try #require(try Self.load(older))
        #expect(fromOlder.registry.domains.allSatisfy { $0.longLinkPreviews == nil })
    }

    static func removingLongLinkPreviews(from data: Data) throws -> Data {
        var file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var registry = try #require(file["registry"] as? [String: Any])
        let domains = try #require(registry["domains"] as? [[String: Any]])
        registry["domains"] = domains.map { $0.filter { $0.key != "longLinkPreviews" } }
        file["registry"] = registry
        return try JSONSerialization.data(withJSONObject: file)
    }
}
