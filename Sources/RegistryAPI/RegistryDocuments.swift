import Foundation
import HTTPServing
import RegistryService
import RouteCore
import Synchronization
import ThreadShards

/// The well-known files (AASA, assetlinks) of the current snapshot, from memory.
///
/// `StaticDocument`s (with their prebuilt responses) are made once per snapshot, on the first request after
/// a swap, and reused by every request until the next swap. Each request thread keeps its own table of them
/// (`VersionedMemo`), so a GET reads one atomic and takes its thread's lock, none another core takes; the
/// shared table behind it, with one copy of each document, is read once per thread and snapshot.
final class RegistryDocuments: Sendable {
    private struct Cache {
        /// `SnapshotHolder.installCount` of the snapshot the documents come from.
        var stamp: UInt64 = 0
        var documents: [DocumentKey: StaticDocument] = [:]
    }

    private let service: RegistryService
    private let cacheControl: String
    private let threads = VersionedMemo<DocumentKey, StaticDocument, UInt64>(initial: 0)
    private let shared = Mutex(Cache())

    /// - Parameter maxAge: seconds clients and CDNs may cache a file (`Cache-Control: public, max-age=…`).
    init(service: RegistryService, cacheControl: String) {
        self.service = service
        self.cacheControl = cacheControl
    }

    /// The answer to a GET of `kind` on the request's host: 404 for a host without one.
    func respond(_ kind: DocumentKind, _ request: HTTPRequest) -> HTTPResponse {
        (document(kind, host: request.host).map { DocumentLookup.document($0) } ?? DocumentLookup.notFound)
            .response(to: request)
    }

    /// The current `kind` document of `host`, if it has one.
    func document(_ kind: DocumentKind, host: String) -> StaticDocument? {
        let key = DocumentKey(host: host, kind: kind)
        // The common case takes the thread's lock and no snapshot: the installed snapshot has not changed since
        // the document was made.
        let stamp = service.snapshots.installCount
        if let cached = threads.value(key, version: stamp) { return cached }
        let document =
            shared.withLock { cache in cache.stamp == stamp ? cache.documents[key] : nil } ?? made(key, stamp)
        guard let document else { return nil }
        threads.keep(document, key, version: stamp)
        return document
    }

    /// The document of `key` in the current snapshot, made and kept in the shared table.
    private func made(_ key: DocumentKey, _ stamp: UInt64) -> StaticDocument? {
        guard let served = service.snapshot.documents[key] else { return nil }
        let document = StaticDocument(
            bytes: Array(served.bytes), contentType: "application/json", etag: served.etag, cacheControl: cacheControl)
        shared.withLock { Self.keep(document, key, stamp, in: &$0) }
        return document
    }

    private static func keep(_ document: StaticDocument, _ key: DocumentKey, _ stamp: UInt64, in cache: inout Cache) {
        // A reader holding an older stamp must not reset the table of a newer snapshot.
        if stamp > cache.stamp {
            cache.stamp = stamp
            cache.documents = [:]
        }
        if stamp == cache.stamp { cache.documents[key] = document }
    }
}
