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
/// Schedule per document: every `interval` (± `jitter`), every `pendingInterval` while the service does not
/// serve the current revision, and on failures a backoff from `errorBackoff` doubling up to `interval`.
/// Requests are conditional (`If-None-Match`, `If-Modified-Since`) when the service gave validators.
public final class DeliveryWatch: Sendable {
    public struct Options: Sendable {
        /// The base before `/a/v1/{host}`.
        public var appleCDN: URL
        /// The base before `/v1/statements:list`.
        public var assetLinksAPI: URL
        /// Fetch and observe (false: only read what another server observed, for this server's metrics).
        public var observe: Bool
        public var interval: Duration
        /// For a document whose current revision the service has not shown yet.
        public var pendingInterval: Duration
        /// ± this fraction of each wait, so a fleet's domains do not all fall due together.
        public var jitter: Double
        public var fetchTimeout: Duration
        /// Apple's limit is 128 KB; a little more is read so an oversize file is seen as such.
        public var maxBytes: Int
        public var concurrency: Int
        public var errorBackoff: Duration
        /// Observations older than this are deleted (each document's latest are kept).
        public var retention: Duration
        /// Between two reads of the observations into this server's metrics.
        public var refreshInterval: Duration
        /// Between two attempts to become the observer (and health checks of its lock's connection).
        public var lockInterval: Duration
        /// The loop's step.
        public var tick: Duration

        public static let defaultAppleCDN = URL(string: "https://app-site-association.cdn-apple.com")!
        public static let defaultAssetLinksAPI = URL(string: "https://digitalassetlinks.googleapis.com")!

        public init(
            appleCDN: URL = defaultAppleCDN, assetLinksAPI: URL = defaultAssetLinksAPI, observe: Bool = true,
            interval: Duration = .seconds(3600), pendingInterval: Duration? = nil, jitter: Double = 0.1,
            fetchTimeout: Duration = .seconds(10), maxBytes: Int = 128 * 1024 + 64 * 1024, concurrency: Int = 4,
            errorBackoff: Duration = .seconds(60), retention: Duration = .seconds(30 * 86_400),
            refreshInterval: Duration = .seconds(30), lockInterval: Duration = .seconds(15),
            tick: Duration = .seconds(1)
        ) {
            self.appleCDN = appleCDN
            self.assetLinksAPI = assetLinksAPI
            self.observe = observe
            self.interval = interval
            self.pendingInterval = pendingInterval ?? max(.seconds(1), interval / 6)
            self.jitter = jitter
            self.fetchTimeout = fetchTimeout
            self.maxBytes = maxBytes
            self.concurrency = max(1, concurrency)
            self.errorBackoff = errorBackoff
            self.retention = retention
            self.refreshInterval = refreshInterval
            self.lockInterval = lockInterval
            self.tick = tick
        }
    }

    /// The advisory lock key of the observer ("rr-deliv" in ASCII).
    public static let lockKey: Int64 = 0x7272_2d64_656c_6976

    public let service: RegistryService
    public let options: Options
    private let databaseURL: String
    private let log: @Sendable (String) -> Void
    private let fetcher = HTTPFetcher(userAgent: "routereg-delivery-watch")
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let observing = Atomic<Bool>(false)
    private let fetchQueue = DispatchQueue(label: "routereg.delivery-fetch", attributes: .concurrent)

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

    /// Whether this server holds the observer's lock now.
    public var isObserver: Bool { observing.load(ordering: .relaxed) }

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

    /// The loop's state, owned by the watch's thread alone.
    private struct Loop {
        let watch: DeliveryWatch
        let lock: SessionLock
        var schedule: [DocumentKey: Plan] = [:]
        /// Per document: the meanings of its revisions (canonical hash → newest number) and the newest
        /// revision number read.
        var meanings: [DocumentKey: (upTo: Int, numbers: [String: Int])] = [:]
        var latest: [DocumentKey: DeliveryLatest] = [:]
        /// Whether `latest` was read since this server became the observer (another one may have observed).
        var latestLoaded = false
        var lastLockAttempt: ContinuousClock.Instant?
        var lastRefresh: ContinuousClock.Instant?
        var lastPrune: ContinuousClock.Instant?

        struct Plan {
            var due: ContinuousClock.Instant
            /// The current revision when planned: a newer one (a publish) brings the next fetch forward.
            var revision: Int
            var failures = 0
        }

        var service: RegistryService { watch.service }
        var options: Options { watch.options }

        mutating func run() {
            while !watch.isStopped {
                if options.observe { keepLock() }
                var observed = false
                if lock.isHeld { observed = observeDue() }
                if observed || lastRefresh.map({ $0.duration(to: .now) >= options.refreshInterval }) ?? true {
                    refreshBoard()
                }
                if lock.isHeld, lastPrune.map({ $0.duration(to: .now) >= .seconds(3600) }) ?? true { prune() }
                sleep(options.tick)
            }
            releaseLock()
        }

        private func sleep(_ interval: Duration) {
            let wake = ContinuousClock.now + interval
            while ContinuousClock.now < wake, !watch.isStopped {
                Thread.sleep(forTimeInterval: min(0.05, max(0, ContinuousClock.now.duration(to: wake).seconds)))
            }
        }

        // MARK: The lock

        /// Tries to become the observer, or checks that the lock's connection still holds it.
        private mutating func keepLock() {
            // A read-only server (a hot standby) cannot record observations.
            if service.readOnlyReason != nil {
                if lock.isHeld { releaseLock() }
                return
            }
            if let last = lastLockAttempt, last.duration(to: .now) < options.lockInterval { return }
            lastLockAttempt = .now
            if lock.isHeld {
                if lock.confirm(deadline: .now + .seconds(5)) { return }
                watch.log("delivery watch: lost the observer lock's connection; another server may observe")
                watch.observing.store(false, ordering: .relaxed)
                return
            }
            // The database away: try again at the next interval.
            guard (try? lock.tryAcquire(deadline: .now + .seconds(5))) == true else { return }
            schedule = [:]
            latestLoaded = false
            watch.observing.store(true, ordering: .relaxed)
            watch.log("delivery watch: this server observes Apple's CDN and Google's Digital Asset Links API")
        }

        private mutating func releaseLock() {
            lock.release(deadline: .now + .seconds(2))
            watch.observing.store(false, ordering: .relaxed)
        }

        // MARK: Observing

        /// Observes the documents that are due; true when anything was recorded.
        private mutating func observeDue() -> Bool {
            let documents = service.snapshot.documents
            if !latestLoaded { readLatest() }
            let now = ContinuousClock.now
            for (key, document) in documents {
                guard var plan = schedule[key] else {
                    schedule[key] = Plan(due: firstDue(key, now: now), revision: document.revision)
                    continue
                }
                if plan.revision != document.revision {
                    // A new revision: look for it at the CDN within the pending interval, not the full one.
                    plan.revision = document.revision
                    plan.due = min(plan.due, now + jittered(options.pendingInterval))
                    schedule[key] = plan
                }
            }
            for key in schedule.keys where documents[key] == nil { schedule[key] = nil }
            let due = schedule.filter { $0.value.due <= now }.sorted { $0.value.due < $1.value.due }
                .prefix(options.concurrency * 4).map(\.key)
            guard !due.isEmpty else { return false }
            let requests = due.map { request(for: $0) }
            let results = fetch(requests)
            // Stopping: the fetches were abandoned, and there is nothing true to record.
            if watch.isStopped { return false }
            var recorded = false
            for (index, key) in due.enumerated() {
                guard let document = documents[key] else { continue }
                let observation = observation(
                    key: key, result: results[index].result, duration: results[index].duration, document: document)
                do {
                    try service.store.database.withTransaction(deadline: .now + .seconds(5)) { tx in
                        var stored = observation
                        stored.id = try service.store.delivery.record(observation, in: tx)
                        latest[key] = DeliveryLatest(
                            last: stored, content: observation.outcome.tellsContent ? stored : latest[key]?.content)
                    }
                    recorded = true
                } catch {
                    watch.log("delivery watch: could not record an observation of \(key.host): \(error)")
                }
                reschedule(key, observation: observation, currentRevision: document.revision)
            }
            return recorded
        }

        /// When a document is first due: from its latest stored observation (so a new observer does not
        /// fetch everything at once), or soon.
        private func firstDue(_ key: DocumentKey, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
            // Never observed: soon, spread over a little while so a first start does not fetch all at once.
            guard let last = latest[key]?.last else {
                return now + jittered(.zero, spread: min(options.pendingInterval, .seconds(60)))
            }
            let age = Duration.milliseconds(Int64(max(0, Date().timeIntervalSince(last.observedAt)) * 1000))
            let behind = latest[key]?.content?.matchedRevision != service.snapshot.documents[key]?.revision
            let wait = (behind ? options.pendingInterval : options.interval) - age
            return now + (wait > .zero ? wait : .zero)
        }

        private mutating func reschedule(_ key: DocumentKey, observation: DeliveryObservation, currentRevision: Int) {
            var plan = schedule[key] ?? Plan(due: .now, revision: currentRevision)
            if observation.outcome.tellsContent || observation.outcome == .invalidJSON
                || observation.outcome == .tooLarge
            {
                plan.failures = 0
                let current = observation.outcome != .notFound && observation.matchedRevision == currentRevision
                plan.due = .now + jittered(current ? options.interval : options.pendingInterval)
            } else {
                plan.failures += 1
                let backoff = options.errorBackoff * (1 << min(plan.failures - 1, 16))
                plan.due = .now + jittered(min(backoff, options.interval))
            }
            schedule[key] = plan
        }

        private func jittered(_ wait: Duration, spread: Duration? = nil) -> Duration {
            let range = spread.map { $0.seconds } ?? wait.seconds * options.jitter
            guard range > 0 else { return wait }
            let seconds = max(0, wait.seconds + Double.random(in: -range...range))
            return .milliseconds(Int64(seconds * 1000))
        }

        private func request(for key: DocumentKey) -> HTTPFetcher.Request {
            var headers = ["Accept": "application/json"]
            if let previous = latest[key]?.content, previous.outcome != .notFound {
                if let etag = previous.etag { headers["If-None-Match"] = etag }
                if let modified = previous.lastModified { headers["If-Modified-Since"] = modified }
            }
            let watch = self.watch
            return HTTPFetcher.Request(
                url: watch.url(for: key), headers: headers, timeout: options.fetchTimeout,
                maxBytes: options.maxBytes, isCancelled: { watch.isStopped })
        }

        /// Runs the fetches, at most `concurrency` at a time; each ends by its deadline.
        private func fetch(_ requests: [HTTPFetcher.Request])
            -> [(result: Result<HTTPFetcher.Response, HTTPFetcher.Failure>, duration: Duration)]
        {
            let results = Mutex(
                [(result: Result<HTTPFetcher.Response, HTTPFetcher.Failure>, duration: Duration)?](
                    repeating: nil, count: requests.count))
            let slots = DispatchSemaphore(value: options.concurrency)
            let group = DispatchGroup()
            let fetcher = watch.fetcher
            for (index, request) in requests.enumerated() {
                slots.wait()
                group.enter()
                watch.fetchQueue.async {
                    let start = ContinuousClock.now
                    let result = fetcher.get(request)
                    let duration = start.duration(to: .now)
                    results.withLock { $0[index] = (result, duration) }
                    slots.signal()
                    group.leave()
                }
            }
            // Every fetch ends by its own deadline; this bound only guards against a transport that ignores it.
            _ = group.wait(timeout: .now() + options.fetchTimeout.seconds * 2 + 1)
            return results.withLock { list in
                list.map { $0 ?? (.failure(.timeout), options.fetchTimeout) }
            }
        }

        /// What a fetch result says, matched to our revisions.
        private mutating func observation(
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

        /// The newest revision of `key` whose meaning has `hash`, reading revisions not seen yet.
        private mutating func match(_ key: DocumentKey, hash: String, upTo current: Int) -> Int? {
            var known = meanings[key] ?? (upTo: 0, numbers: [:])
            if known.upTo < current {
                // The newest 200 revisions at most: a service serving one older than that is reported as
                // serving none of ours, and a long history is never read whole.
                let after = max(known.upTo, current - 200)
                do {
                    let revisions = try service.store.read(deadline: .now + .seconds(10)) { tx in
                        try service.store.delivery.revisions(
                            host: key.host, kind: key.kind, after: after, in: tx)
                    }
                    for revision in revisions {
                        let meaning =
                            key.kind == .aasa
                            ? DeliveryMeaning.document(revision.bytes) : DeliveryMeaning.assetLinksFile(revision.bytes)
                        if case .success(let h) = meaning { known.numbers[h] = revision.number }
                        known.upTo = max(known.upTo, revision.number)
                    }
                    meanings[key] = known
                } catch {
                    watch.log("delivery watch: could not read the revisions of \(key.host): \(error)")
                }
            }
            return known.numbers[hash]
        }

        private mutating func readLatest() {
            if let read = try? service.store.read(
                deadline: .now + .seconds(5),
                { tx in
                    try service.store.delivery.latest(
                        hosts: Array(Set(service.snapshot.documents.keys.map(\.host))).sorted(), in: tx)
                })
            {
                latest = read
                latestLoaded = true
            }
        }

        private mutating func refreshBoard() {
            lastRefresh = .now
            if let states = try? service.deliveryStates(deadline: .now + .seconds(5)) {
                service.delivery.replace(states)
            }
        }

        private mutating func prune() {
            lastPrune = .now
            let cutoff = Date().addingTimeInterval(-options.retention.seconds)
            _ = try? service.store.database.withTransaction(deadline: .now + .seconds(30)) { tx in
                try service.store.delivery.prune(olderThan: cutoff, in: tx)
            }
        }
    }
}
