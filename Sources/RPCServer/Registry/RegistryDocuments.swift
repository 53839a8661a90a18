import Foundation
import RegistryService
import RouteCore
import Synchronization

/// Serves the well-known files of the current snapshot from memory, and the canOpen tables
/// (`CanOpenTableDocuments`).
///
/// `StaticDocument`s (with their prebuilt responses) are made once per snapshot, on the first request after
/// a swap, and reused by every request until the next swap.
public final class RegistryDocuments: StaticDocumentProvider {
    private struct Cache {
        /// `SnapshotHolder.installCount` of the snapshot the documents come from.
        var stamp: UInt64 = 0
        var documents: [DocumentKey: StaticDocument] = [:]
    }

    private let service: RegistryService
    private let cacheControl: String
    private let cache = Mutex(Cache())
    private let tables: CanOpenTableDocuments

    /// - Parameter maxAge: seconds clients and CDNs may cache a file (`Cache-Control: public, max-age=…`).
    public init(service: RegistryService, maxAge: Int = 300) {
        self.service = service
        self.cacheControl = "public, max-age=\(maxAge)"
        self.tables = CanOpenTableDocuments(service: service, cacheControl: cacheControl)
    }

    public func lookup(path: String, host: String) -> DocumentLookup {
        if path.hasPrefix(CanOpenTableDocuments.prefix) { return tables.lookup(path: path) }
        return document(path: path, host: host).map { .document($0) } ?? .notFound
    }

    public func document(path: String, host: String) -> StaticDocument? {
        let kind: DocumentKind
        switch path {
        case "/.well-known/apple-app-site-association", "/apple-app-site-association": kind = .aasa
        case "/.well-known/assetlinks.json": kind = .assetlinks
        default: return nil
        }
        let key = DocumentKey(host: host, kind: kind)
        // The common case takes one lock and no snapshot: the installed snapshot has not changed since the
        // document was made.
        let stamp = service.snapshots.installCount
        if let cached = cache.withLock({ $0.stamp == stamp ? $0.documents[key] : nil }) { return cached }
        let snapshot = service.snapshot
        guard let served = snapshot.documents[key] else { return nil }
        let document = StaticDocument(
            bytes: Array(served.bytes), contentType: "application/json", etag: served.etag, cacheControl: cacheControl)
        cache.withLock { cache in
            // A reader holding an older stamp must not reset the table of a newer snapshot.
            if stamp > cache.stamp {
                cache.stamp = stamp
                cache.documents = [:]
            }
            if stamp == cache.stamp { cache.documents[key] = document }
        }
        return document
    }
}
