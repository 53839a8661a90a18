import Foundation
import RouteCore
import Testing

@testable import RegistryService

@Suite struct SnapshotFileEncoderTests {
    private static func app(_ id: String) -> App {
        App(id: id, ios: IOSConfig(appIds: ["ABCDE12345.com.example.\(id)"]))
    }

    private static func routes(_ prefix: String, count: Int) -> [Route] {
        (0..<count).map { n in
            Route(
                id: "\(prefix)\(n)", pattern: URLPattern(path: "/\(prefix)/\(n)/*"),
                platforms: [.ios: VersionRange(since: try! Version("5.0"))])
        }
    }

    private static let registry = Registry(
        apps: [app("alpha"), app("beta")],
        domains: [Domain(host: "alpha.example", apps: ["alpha"]), Domain(host: "beta.example", apps: ["beta"])],
        routes: ["alpha": routes("a", count: 3), "beta": routes("b", count: 2)],
        releases: [
            Release(app: "alpha", platform: .ios, version: try! Version("5.1"), state: .live),
            Release(app: "alpha", platform: .ios, version: try! Version("5.2"), state: .retired),
            Release(app: "beta", platform: .ios, version: try! Version("1.0"), state: .live),
        ])

    private static func document(_ host: String, revision: Int) -> ServedDocument {
        ServedDocument(
            host: host, kind: .aasa, revision: revision, etag: "\"e\(revision)\"",
            bytes: Data("{\"applinks\":{\"details\":[]}} \(host)".utf8), cause: "Releases.Publish ios 5.1",
            createTime: Date(timeIntervalSince1970: 1_700_000_000))
    }

    private static func snapshot(_ registry: Registry, revisions: [String: Int], generation: Int64) -> Snapshot {
        var documents: [DocumentKey: ServedDocument] = [:]
        for (host, revision) in revisions {
            documents[DocumentKey(host: host, kind: .aasa)] = document(host, revision: revision)
        }
        return Snapshot(
            registry: registry, documents: documents, tokens: [:], generation: generation,
            builtAt: Date(timeIntervalSince1970: 1_700_000_100))
    }

    /// Read back as `SnapshotFile.load` reads it, the pieced-together file is the snapshot (what a start
    /// without the database serves), and `JSONEncoder`'s encoding of the same contents decodes the same.
    private static func decoded(_ data: Data) throws -> SnapshotFile.Contents {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(SnapshotFile.Contents.self, from: data)
    }

    @Test func theFileReadsBackAsTheSnapshot() throws {
        let snapshot = Self.snapshot(Self.registry, revisions: ["alpha.example": 3, "beta.example": 1], generation: 7)
        let data = try SnapshotFileEncoder().encode(snapshot)
        let contents = try Self.decoded(data)
        #expect(contents.registry == snapshot.registry)
        #expect(contents.generation == 7 && contents.builtAt == snapshot.builtAt)
        #expect(Set(contents.documents) == Set(snapshot.documents.values))

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        let loaded = try #require(SnapshotFile.load(from: url))
        #expect(loaded.registry == snapshot.registry && loaded.documents == snapshot.documents)
    }

    /// After a write to one app, only that app's parts (and the document it changed) are encoded again; the
    /// file still reads back as the new snapshot.
    @Test func aWriteToOneAppEncodesOnlyItsParts() throws {
        let encoder = SnapshotFileEncoder()
        let first = Self.snapshot(Self.registry, revisions: ["alpha.example": 3, "beta.example": 1], generation: 7)
        _ = try encoder.encode(first)
        // 2 route arrays, 2 release runs, 2 documents.
        #expect(encoder.partsEncodedLast == 6)

        var registry = Self.registry
        registry.routes["beta"]!.append(Self.routes("c", count: 1)[0])
        let second = Self.snapshot(registry, revisions: ["alpha.example": 3, "beta.example": 2], generation: 8)
        let data = try encoder.encode(second)
        #expect(encoder.partsEncodedLast == 2)
        let contents = try Self.decoded(data)
        #expect(contents.registry == registry && contents.generation == 8)
        #expect(Set(contents.documents) == Set(second.documents.values))

        var published = registry
        published.releases[2].state = .retired
        let third = Self.snapshot(published, revisions: ["alpha.example": 3, "beta.example": 2], generation: 9)
        #expect(try Self.decoded(try encoder.encode(third)).registry == published)
        #expect(encoder.partsEncodedLast == 1)

        // Nothing changed: nothing is encoded again.
        _ = try encoder.encode(third)
        #expect(encoder.partsEncodedLast == 0)
    }

    /// An empty registry (a server that never reached its database) is a valid file too.
    @Test func anEmptySnapshotIsAValidFile() throws {
        let contents = try Self.decoded(try SnapshotFileEncoder().encode(Snapshot.empty))
        #expect(contents.registry == Registry() && contents.documents.isEmpty)
    }
}
