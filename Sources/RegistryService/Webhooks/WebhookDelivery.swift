import Foundation
import HTTPFetching
import RouteCore
import RouteStore
import Synchronization

/// Delivers the outbox (`webhook_events`) to the receivers, from one server of a fleet at a time (a lease in
/// the database, renewed each round). Each webhook gets its events in order, up to `batchSize` per POST,
/// signed (`WebhookSignature`); a failure (no 2xx, a timeout, a refused address) leaves its place and tries
/// again after a backoff that doubles up to `maxBackoff`. Runs on a thread of its own (`round` blocks): a
/// receiver, however slow, never touches a click, which only counts in memory.
public final class WebhookDelivery: Sendable {
    public static let batchSize = 100
    /// How long one POST may take.
    public static let postTimeout: Duration = .seconds(5)
    /// The longest wait between attempts of a failing receiver.
    public static let maxBackoff: TimeInterval = 600
    /// How long the lease is held without renewal: another server takes over after it.
    public static let leaseLength: TimeInterval = 30
    /// Events older than this are dropped, delivered or not.
    public static let retention: TimeInterval = 3 * 86_400
    /// Bodies of receivers' answers are read up to this (and ignored).
    static let answerLimit = 16_384

    private let store: Store
    private let fetcher = HTTPFetcher(userAgent: "RouteRegistry-Webhooks/1")
    private let holder: String
    private let privateHosts: Set<String>
    private let log: @Sendable (String) -> Void
    /// Seconds since 1970 of the last pruning of old events (once a minute is plenty).
    private let lastPrune = Atomic<Int>(0)

    /// - Parameters:
    ///   - holder: this server's name in the lease (unique per process).
    ///   - privateHosts: receivers an admin allowed inside the network (no address check for them).
    public init(
        store: Store, holder: String, privateHosts: Set<String>, log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.holder = holder
        self.privateHosts = privateHosts
        self.log = log
    }

    /// The wait before attempt `failures + 1`: 1 s, 2 s, 4 s … up to `maxBackoff`.
    public static func backoff(failures: Int) -> TimeInterval {
        min(maxBackoff, pow(2, Double(max(0, min(failures, 20) - 1))))
    }

    /// One round by `deadline`: takes or renews the lease, then sends each due webhook one batch. Returns how
    /// many POSTs were made; 0 without the lease. `isCancelled` abandons a POST in flight (a stopping server).
    @discardableResult
    public func round(
        now: Date = Date(), deadline: ContinuousClock.Instant, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> Int {
        do {
            // One short transaction when there is nothing to do: no webhook anywhere, or another server's lease.
            let leased = try store.database.withTransaction(deadline: deadline) { tx in
                try store.webhooks.any(in: tx)
                    && store.webhooks.lease(
                        holder: holder, until: now.addingTimeInterval(Self.leaseLength), now: now, in: tx)
            }
            guard leased else { return 0 }
            if now.timeIntervalSince1970 - Double(lastPrune.load(ordering: .relaxed)) >= 60 {
                lastPrune.store(Int(now.timeIntervalSince1970), ordering: .relaxed)
                try store.database.withTransaction(deadline: deadline) { tx in
                    try store.webhooks.prune(before: now.addingTimeInterval(-Self.retention), in: tx)
                }
            }
            let due = try store.read(deadline: deadline) { tx in
                try store.webhooks.due(now: now, in: tx).map { webhook in
                    (webhook, try store.webhooks.pending(webhook, limit: Self.batchSize, in: tx))
                }
            }
            var posts = 0
            for (webhook, events) in due where !events.isEmpty {
                guard ContinuousClock.now < deadline, !isCancelled() else { break }
                try deliver(events, to: webhook, deadline: deadline, isCancelled: isCancelled)
                posts += 1
            }
            return posts
        } catch {
            log("webhooks: a delivery round failed (\(error)); tried again next round")
            return 0
        }
    }

    private func deliver(
        _ events: [WebhookEventRow], to webhook: StoredWebhook, deadline: ContinuousClock.Instant,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws {
        let body = Self.body(webhook: webhook.webhook.id, events)
        let started = ContinuousClock.now
        let timestamp = Int(Date().timeIntervalSince1970)
        var outcome: (status: Int?, error: String?) = (nil, nil)
        if let url = URL(string: webhook.webhook.url), let host = url.host?.lowercased() {
            let request = HTTPFetcher.Request(
                url: url,
                headers: [
                    "Content-Type": "application/json",
                    WebhookSignature.header: WebhookSignature.header(
                        secret: webhook.secret, timestamp: timestamp, body: body),
                    "RouteRegistry-Webhook": webhook.webhook.id,
                ],
                timeout: min(Self.postTimeout, max(.milliseconds(100), started.duration(to: deadline))),
                maxBytes: Self.answerLimit, isCancelled: isCancelled, body: Data(body),
                publicAddressesOnly: !privateHosts.contains(host))
            switch fetcher.get(request) {
            case .success(let answer): outcome = (answer.status, nil)
            case .failure(.tooLarge(let status, _)): outcome = (status, nil)
            case .failure(let failure): outcome = (nil, failure.description)
            }
        } else {
            outcome = (nil, "the URL cannot be parsed")
        }
        let milliseconds = Int(started.duration(to: .now) / .milliseconds(1))
        let delivered = outcome.status.map { (200..<300).contains($0) } ?? false
        let retryAt = delivered ? nil : Date().addingTimeInterval(Self.backoff(failures: webhook.failures + 1))
        // Recorded even past the round's deadline: the POST happened, and its outcome must not be lost.
        try store.database.withTransaction(deadline: .now + .seconds(5)) { tx in
            try store.webhooks.record(
                webhook: webhook.webhook.id, through: delivered ? events.last?.id : nil, retryAt: retryAt,
                events: events.count, status: outcome.status, error: outcome.error, milliseconds: milliseconds, in: tx)
        }
    }

    /// `{"webhook": id, "events": [{"id", "type", "created", "data"}]}`, the payloads as stored.
    static func body(webhook: String, _ events: [WebhookEventRow]) -> [UInt8] {
        var out = Array("{\"webhook\":\"\(webhook)\",\"events\":[".utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(
                "{\"id\":\(event.id),\"type\":\"\(event.type)\",\"created\":\"\(Timestamp.string(event.createTime))\",\"data\":"
                    .utf8)
            out += event.payload
            out.append(UInt8(ascii: "}"))
        }
        out += Array("]}".utf8)
        return out
    }
}
