/// When each document's delivery is next observed: the delivery watch's schedule as a pure value. Time is
/// passed in and randomness comes from the caller's generator, so every rule is tested without a clock,
/// sockets or a database.
///
/// A document is due every `interval`, every `pendingInterval` while the service does not serve the current
/// revision, and after a failure (timeout, 5xx, network) with a backoff from `errorBackoff` doubling up to
/// `interval`; each wait is jittered by ± `jitter` of itself so a fleet's domains do not fall due together. A
/// publish (a newer current revision) brings the next fetch forward to the pending interval.
public struct DeliverySchedule: Sendable, Hashable {
    /// The waits the schedule is made of.
    public struct Timing: Sendable, Hashable {
        public var interval: Duration
        /// For a document whose current revision the service has not shown yet.
        public var pendingInterval: Duration
        public var errorBackoff: Duration
        /// ± this fraction of each wait.
        public var jitter: Double

        public init(interval: Duration, pendingInterval: Duration, errorBackoff: Duration, jitter: Double) {
            self.interval = interval
            self.pendingInterval = pendingInterval
            self.errorBackoff = errorBackoff
            self.jitter = jitter
        }

        /// A never-observed document is first fetched within this: soon, spread so a first start does not
        /// fetch everything at once.
        public var firstSpread: Duration { min(pendingInterval, .seconds(60)) }

        /// The wait after `failures` failures in a row (1, 2, …): doubling from `errorBackoff`, at most
        /// `interval`.
        public func backoff(failures: Int) -> Duration {
            min(errorBackoff * (1 << min(max(failures, 1) - 1, 16)), interval)
        }
    }

    /// One document's plan.
    public struct Plan: Sendable, Hashable {
        public var due: ContinuousClock.Instant
        /// The current revision when planned: a newer one (a publish) brings the next fetch forward.
        public var revision: Int
        /// Failed observations in a row.
        public var failures: Int

        public init(due: ContinuousClock.Instant, revision: Int, failures: Int = 0) {
            self.due = due
            self.revision = revision
            self.failures = failures
        }
    }

    /// What stored observations tell about a document never planned before (a new observer's start).
    public struct History: Sendable, Hashable {
        /// How long ago the latest observation was made.
        public var age: Duration
        /// Whether the last known copy is the current revision.
        public var servesCurrent: Bool

        public init(age: Duration, servesCurrent: Bool) {
            self.age = age
            self.servesCurrent = servesCurrent
        }
    }

    public var timing: Timing
    public private(set) var plans: [DocumentKey: Plan] = [:]

    public init(timing: Timing) { self.timing = timing }

    /// Follows the registry's documents (`current`: each one's current revision): plans new ones (from their
    /// `history`, so a restart does not fetch everything at once), brings a published document forward,
    /// forgets removed ones.
    public mutating func sync(
        current: [DocumentKey: Int], history: (DocumentKey) -> History?, now: ContinuousClock.Instant,
        using random: inout some RandomNumberGenerator
    ) {
        for (key, revision) in current {
            guard var plan = plans[key] else {
                plans[key] = Plan(due: firstDue(history(key), now: now, using: &random), revision: revision)
                continue
            }
            if plan.revision != revision {
                plan.revision = revision
                plan.due = min(plan.due, now + jittered(timing.pendingInterval, using: &random))
                plans[key] = plan
            }
        }
        for key in plans.keys where current[key] == nil { plans[key] = nil }
    }

    /// The documents due at `now`, most overdue first, at most `limit`.
    public func due(at now: ContinuousClock.Instant, limit: Int) -> [DocumentKey] {
        plans.filter { $0.value.due <= now }
            .sorted {
                ($0.value.due, $0.key.host, $0.key.kind.rawValue) < ($1.value.due, $1.key.host, $1.key.kind.rawValue)
            }
            .prefix(max(0, limit)).map(\.key)
    }

    /// Plans the next observation of `key` after one that ended with `outcome` at `now`; `servesCurrent`:
    /// whether the service's copy is the current revision.
    public mutating func record(
        _ key: DocumentKey, outcome: DeliveryOutcome, servesCurrent: Bool, currentRevision: Int,
        now: ContinuousClock.Instant, using random: inout some RandomNumberGenerator
    ) {
        var plan = plans[key] ?? Plan(due: now, revision: currentRevision)
        if outcome.isAnswer {
            plan.failures = 0
            let current = outcome != .notFound && servesCurrent
            plan.due = now + jittered(current ? timing.interval : timing.pendingInterval, using: &random)
        } else {
            plan.failures += 1
            plan.due = now + jittered(timing.backoff(failures: plan.failures), using: &random)
        }
        plans[key] = plan
    }

    /// Forgets every plan (another server observed meanwhile: start again from the stored observations).
    public mutating func reset() { plans = [:] }

    private func firstDue(
        _ history: History?, now: ContinuousClock.Instant, using random: inout some RandomNumberGenerator
    ) -> ContinuousClock.Instant {
        guard let history else { return now + jittered(.zero, spread: timing.firstSpread, using: &random) }
        let wait = (history.servesCurrent ? timing.interval : timing.pendingInterval) - history.age
        return now + (wait > .zero ? wait : .zero)
    }

    /// `wait` ± `jitter` of itself (or ± `spread`), never negative.
    func jittered(_ wait: Duration, spread: Duration? = nil, using random: inout some RandomNumberGenerator)
        -> Duration
    {
        let range = spread.map(\.seconds) ?? wait.seconds * timing.jitter
        guard range > 0 else { return wait }
        let seconds = max(0, wait.seconds + Double.random(in: -range...range, using: &random))
        return .milliseconds(Int64(seconds * 1000))
    }
}

extension Duration {
    /// In seconds, as a `Double`.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
