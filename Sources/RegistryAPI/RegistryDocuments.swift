import Foundation
import HTTPServing
import RegistryService
import RouteCore
import Synchronization

/// The well-known files (AASA, assetlinks) of the current snapshot, from memory.
///
/// `StaticDocument`s (with their prebuilt responses) are made once per snapshot, on the first request after
/// a swap, and reused by every request until the next swap.
final class RegistryDocuments: Sendable {
    private struct Cache {
        /// `SnapshotHolder.installCount` of the snapshot the documents come from.
        var stamp: UInt64 = 0
        var documents: [DocumentKey: StaticDocument] = [:]
    }

    private let service: RegistryService
    private let cacheControl: String
    private let cache = Mutex(Cache())

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
