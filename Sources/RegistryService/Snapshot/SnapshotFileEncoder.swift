import Foundation
import RouteCore
import Synchronization

/// Writes the JSON of `SnapshotFile` a part at a time, keeping each part's bytes: an app's routes, an
/// app's releases, a served document. A snapshot after a write to one app shares every other app's arrays
/// with the one before, so persisting it encodes that app's parts again and copies the rest (encoding the
/// whole registry every second of a stream of writes cost the writes of one app a share of every app).
///
/// The bytes are those `JSONEncoder` makes of `SnapshotFile.Contents` (keys in another order), so
/// `SnapshotFile.load` reads them unchanged.
final class SnapshotFileEncoder: Sendable {
    private struct Parts {
        var routes: [String: (routes: [Route], json: Data)] = [:]
        var releases: [String: (releases: [Release], json: Data)] = [:]
        var documents: [DocumentKey: (revision: Int, etag: String, json: Data)] = [:]
        /// Parts encoded by the last call, for tests.
        var encoded = 0
    }

    private let parts = Mutex(Parts())

    /// How many parts the last `encode` encoded rather than copied.
    var partsEncodedLast: Int { parts.withLock { $0.encoded } }

    func encode(_ snapshot: Snapshot) throws -> Data {
        try parts.withLock { previous in
            var next = Parts()
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let registry = snapshot.registry
            var out = Data("{\"format\":1,\"generation\":".utf8)
            out += try encoder.encode(snapshot.generation)
            out += Data(",\"builtAt\":".utf8)
            out += try encoder.encode(snapshot.builtAt)
            out += Data(",\"registry\":{\"apps\":".utf8)
            out += try encoder.encode(registry.apps)
            out += Data(",\"domains\":".utf8)
            out += try encoder.encode(registry.domains)

            out += Data(",\"routes\":{".utf8)
            for (position, app) in registry.routes.keys.sorted().enumerated() {
                let routes = registry.routes[app]!
                let json: Data
                if let kept = previous.routes[app], kept.routes == routes {
                    json = kept.json
                } else {
                    json = try encoder.encode(routes)
                    next.encoded += 1
                }
                next.routes[app] = (routes, json)
                if position > 0 { out.append(UInt8(ascii: ",")) }
                out += try encoder.encode(app)
                out.append(UInt8(ascii: ":"))
                out += json
            }

            // The releases in the registry's order, a run of one app's at a time (the registry keeps each
            // app's together); each run's elements without the brackets of their array.
            out += Data("},\"releases\":[".utf8)
            var start = registry.releases.startIndex
            var first = true
            while start < registry.releases.endIndex {
                let app = registry.releases[start].app
                let end = registry.releases[start...].firstIndex { $0.app != app } ?? registry.releases.endIndex
                let run = Array(registry.releases[start..<end])
                let json: Data
                if let kept = previous.releases[app], kept.releases == run {
                    json = kept.json
                } else {
                    json = try encoder.encode(run).dropFirst().dropLast()
                    next.encoded += 1
                }
                next.releases[app] = (run, json)
                if !first { out.append(UInt8(ascii: ",")) }
                out += json
                first = false
                start = end
            }

            out += Data("]},\"documents\":[".utf8)
            for (position, key) in snapshot.documents.keys.sorted(by: Self.order).enumerated() {
                let document = snapshot.documents[key]!
                let json: Data
                if let kept = previous.documents[key], kept.revision == document.revision,
                    kept.etag == document.etag
                {
                    json = kept.json
                } else {
                    json = try encoder.encode(document)
                    next.encoded += 1
                }
                next.documents[key] = (document.revision, document.etag, json)
                if position > 0 { out.append(UInt8(ascii: ",")) }
                out += json
            }
            out += Data("]}".utf8)
            previous = next
            return out
        }
    }

    private static func order(_ a: DocumentKey, _ b: DocumentKey) -> Bool {
        (a.host, a.kind.rawValue) < (b.host, b.kind.rawValue)
    }
}
