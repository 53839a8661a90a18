import Foundation
import HTTPFetching
import RouteCore
import RouteStore
import Synchronization

/// The delivery watch: what Apple's CDN (`{appleCDN}/a/v1/{host}`) and Google's Digital Asset Links API
/// (`{assetLinksAPI}/v1/statements:list`) serve for every domain with a generated document, observed on a
/// schedule and stored in `delivery_observations`, where every server of the fleet reads it.
///
/// One thread does the scheduling, the matching and the database work; fetches run on up to `concurrency`
/// others, each bounded by `fetchTimeout` and `maxBytes`, so a hung or enormous answer costs one slot for a
/// few seconds and never stalls the server. One server of a fleet observes at a time: the one holding a
/// session advisory lock on a connection of its own (`pg_try_advisory_lock`, never a blocking wait; the
/// lock goes with the connection if the server dies). The others only read the observations.
///
/// The watch is a driver: when each document is due is `DeliverySchedule`'s decision and what a copy is
/// `DeliveryClassification`'s (both pure, in RouteCore); the watch holds the lock (`+Loop`), fetches
/// (`+Fetching`), turns answers into observations matched to our revisions (`+Observation`) and persists them.
/// Requests are conditional (`If-None-Match`, `If-Modified-Since`) when the service gave validators.
public final class DeliveryWatch: Sendable {
    /// The advisory lock key of the observer ("rr-deliv" in ASCII).
    public static let lockKey: Int64 = 0x7272_2d64_656c_6976

    public let service: RegistryService
    public let options: Options
    private let databaseURL: String
    let log: @Sendable (String) -> Void
    let fetcher = HTTPFetcher(userAgent: "routereg-delivery-watch")
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let fetchQueue = DispatchQueue(label: "routereg.delivery-fetch", attributes: .concurrent)

    /// - Parameter databaseURL: for the lock's own connection (the same database as the service's store).
    public init(
        service: RegistryService, databaseURL: String, options: Options = Options(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.service = service
        self.databaseURL = databaseURL
        self.options = options
        self.log = log
    }

    /// Starts the watch's thread.
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            var loop = Loop(watch: self, lock: SessionLock(url: databaseURL, key: Self.lockKey))
            loop.run()
            done.signal()
        }
        thread.name = "routereg-delivery"
        thread.start()
    }

    /// Stops the thread (waiting at most for the fetches in flight, each bounded by `fetchTimeout`) and
    /// releases the lock. Stopping twice is harmless.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        if started.exchange(false, ordering: .relaxed) { done.wait() }
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// The URL observed for a document.
    public func url(for key: DocumentKey) -> URL {
        switch key.kind {
        case .aasa:
            return options.appleCDN.appendingPathComponent("a").appendingPathComponent("v1")
                .appendingPathComponent(key.host)
        case .assetlinks:
            var components = URLComponents(
                url: options.assetLinksAPI.appendingPathComponent("v1").appendingPathComponent("statements:list"),
                resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "source.web.site", value: "https://\(key.host)"),
                URLQueryItem(name: "relation", value: DeliveryMeaning.handleAllURLs),
            ]
            return components.url!
        }
    }
}
