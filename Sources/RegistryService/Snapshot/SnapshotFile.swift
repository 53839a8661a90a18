import Foundation
import RouteCore

/// The snapshot on disk: the registry and the served documents, so a server restarted while its database
/// is down still serves the last known files. Tokens are deliberately not persisted: with the database
/// down no write can succeed anyway, and secrets' hashes have no business in a cache file.
enum SnapshotFile {
    /// What the file holds (`SnapshotFileEncoder` writes it a part at a time).
    struct Contents: Codable {
        var format = 1
        var registry: Registry
        var documents: [ServedDocument]
        var generation: Int64
        var builtAt: Date
    }

    /// Writes `snapshot` to `url` (replacing the file whole), encoded by `encoder`, which reuses the parts
    /// the snapshot shares with the one it encoded before.
    static func save(_ snapshot: Snapshot, to url: URL, encoder: SnapshotFileEncoder) throws {
        let data = try encoder.encode(snapshot)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// The persisted snapshot, or nil when there is none or it cannot be read.
    static func load(from url: URL) -> Snapshot? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let contents = try? decoder.decode(Contents.self, from: data), contents.format == 1 else { return nil }
        var documents: [DocumentKey: ServedDocument] = [:]
        for document in contents.documents {
            documents[DocumentKey(host: document.host, kind: document.kind)] = document
        }
        // Generation 0: any snapshot read from the database later is newer than this one.
        return Snapshot(
            registry: contents.registry, documents: documents, tokens: [:], generation: 0, builtAt: contents.builtAt)
    }
}
