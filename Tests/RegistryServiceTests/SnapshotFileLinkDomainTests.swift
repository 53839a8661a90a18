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
        let older = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #","longLinkPreviews":true"#, with: "")
        #expect(older != String(decoding: data, as: UTF8.self))
        let fromOlder = try #require(try Self.load(Data(older.utf8)))
        #expect(fromOlder.registry.domains.allSatisfy { $0.longLinkPreviews == nil })
    }
}
