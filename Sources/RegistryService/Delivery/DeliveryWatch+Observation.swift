import Foundation
import HTTPFetching
import RouteCore
import RouteStore

extension DeliveryWatch.Loop {
    /// What a fetch result says, matched to our revisions.
    mutating func observation(
        key: DocumentKey, result: Result<HTTPFetcher.Response, HTTPFetcher.Failure>, duration: Duration,
        document: ServedDocument
    ) -> DeliveryObservation {
        let previous = latest[key]?.content
        var o = DeliveryObservation(
            host: key.host, kind: key.kind, outcome: .networkError,
            durationMs: Int(duration.seconds * 1000))
        switch result {
        case .failure(.timeout):
            o.outcome = .timeout
            o.error = "no complete answer within \(Int(options.fetchTimeout.seconds * 1000)) ms"
        case .failure(.tooLarge(let status, let limit)):
            o.outcome = .tooLarge
            o.httpStatus = status
            o.error = "the body exceeds \(limit) bytes"
        case .failure(.network(let text)):
            o.outcome = .networkError
            o.error = text
        case .failure(.cancelled):
            o.outcome = .networkError
            o.error = "cancelled"
        case .success(let response):
            o.httpStatus = response.status
            switch response.status {
            case 304 where previous != nil && previous?.outcome != .notFound:
                o.outcome = .unchanged
                o.size = previous?.size
                o.sha256 = previous?.sha256
                o.canonicalSHA256 = previous?.canonicalSHA256
                o.etag = response.header("etag") ?? previous?.etag
                o.lastModified = response.header("last-modified") ?? previous?.lastModified
            case 200:
                o.size = response.body.count
                o.sha256 = SHA256.hex(response.body)
                let meaning =
                    key.kind == .aasa
                    ? DeliveryMeaning.document(response.body) : DeliveryMeaning.statementsList(response.body)
                switch meaning {
                case .success(let hash):
                    o.outcome = .served
                    o.canonicalSHA256 = hash
                    o.etag = response.header("etag")
                    o.lastModified = response.header("last-modified")
                case .failure(.invalidJSON(let why)):
                    o.outcome = .invalidJSON
                    o.error = "not strict JSON: \(why)"
                case .failure(.unexpectedShape(let why)):
                    o.outcome = .invalidJSON
                    o.error = "unexpected JSON: \(why)"
                }
            case 404:
                o.outcome = .notFound
            default:
                o.outcome = .httpError
                o.error = "HTTP \(response.status)"
            }
        }
        if let hash = o.canonicalSHA256 {
            o.matchedRevision = match(key, hash: hash, upTo: document.revision)
        }
        if o.outcome.tellsContent {
            let same =
                previous.map {
                    ($0.outcome == .notFound && o.outcome == .notFound)
                        || ($0.canonicalSHA256 != nil && $0.canonicalSHA256 == o.canonicalSHA256)
                } ?? false
            o.servingSince = same ? (previous?.servingSince ?? previous?.observedAt) : Date()
        }
        return o
    }

    /// The newest revision of `key` within the look-back whose meaning is `hash`, reading revisions not seen
    /// yet (revisions never change: each is read once).
    mutating func match(_ key: DocumentKey, hash: String, upTo current: Int) -> Int? {
        var known = meanings[key] ?? (upTo: 0, byNumber: [:])
        if known.upTo < current {
            let after = max(known.upTo, current - DeliveryClassification.lookBack)
            do {
                let revisions = try service.store.read(deadline: .now + .seconds(10)) { tx in
                    try service.store.delivery.revisions(host: key.host, kind: key.kind, after: after, in: tx)
                }
                for revision in revisions {
                    let meaning =
                        key.kind == .aasa
                        ? DeliveryMeaning.document(revision.bytes) : DeliveryMeaning.assetLinksFile(revision.bytes)
                    if case .success(let h) = meaning { known.byNumber[revision.number] = h }
                    known.upTo = max(known.upTo, revision.number)
                }
                // Those the look-back left behind are never asked for again.
                known.byNumber = known.byNumber.filter {
                    !DeliveryClassification.isBeyondLookBack($0.key, current: current)
                }
                meanings[key] = known
            } catch {
                watch.log("delivery watch: could not read the revisions of \(key.host): \(error)")
            }
        }
        return DeliveryClassification.match(meaning: hash, current: current) { known.byNumber[$0] }
    }
}
