import Synchronization

/// Failed sign-ins counted per client address, in memory only (no address is ever stored): after
/// `maxFailures` failures within `window`, further failed sign-ins from that address are answered
/// RESOURCE_EXHAUSTED (HTTP 429 with `Retry-After`) until `lockout` has passed.
///
/// A caller whose token is valid is served even from a locked address: the limit is on failures, so an
/// office or CI pool behind one address keeps working while one misconfigured job fails. Guessing a secret
/// (256 random bits) is hopeless either way; what the limit stops is a client hammering the server, and the
/// log with it: a lockout is reported once per burst (`JSONRPCObserver.signInsLimited`).
///
/// Bounded: at most `maxAddresses` addresses are tracked; when full, finished entries are dropped first,
/// then the oldest half.
public final class SignInLimiter: Sendable {
    /// How many failures lock an address, and for how long.
    public struct Policy: Sendable, Hashable {
        public var maxFailures: Int
        public var window: Duration
        public var lockout: Duration
        public var maxAddresses: Int

        public init(
            maxFailures: Int = 10, window: Duration = .seconds(60), lockout: Duration = .seconds(60),
            maxAddresses: Int = 10_000
        ) {
            self.maxFailures = maxFailures
            self.window = window
            self.lockout = lockout
            self.maxAddresses = maxAddresses
        }
    }

    /// A failure that locked its address: report it once.
    public struct Lockout: Sendable, Hashable {
        public var address: String
        public var failures: Int
        public var retryAfterSeconds: Int
    }

    /// What a failed sign-in leads to.
    public enum Verdict: Sendable, Hashable {
        /// Answer as usual (UNAUTHENTICATED).
        case counted
        /// Answer RESOURCE_EXHAUSTED, retry after this many seconds; `started` when this failure began the
        /// lockout (log it).
        case limited(retryAfterSeconds: Int, started: Lockout?)
    }

    private struct Entry {
        var failures: Int
        var windowStart: ContinuousClock.Instant
        var lockedUntil: ContinuousClock.Instant?
    }

    public let policy: Policy
    private let entries = Mutex<[String: Entry]>([:])
    private let failureCount = Atomic<Int>(0)
    private let lockoutCount = Atomic<Int>(0)
    private let refusalCount = Atomic<Int>(0)

    public init(policy: Policy = Policy()) { self.policy = policy }

    /// Failed sign-ins since start.
    public var failures: Int { failureCount.load(ordering: .relaxed) }
    /// Addresses locked since start (bursts).
    public var lockouts: Int { lockoutCount.load(ordering: .relaxed) }
    /// Calls refused RESOURCE_EXHAUSTED since start.
    public var refusals: Int { refusalCount.load(ordering: .relaxed) }

    /// Counts a failed sign-in from `address` and says how to answer it.
    public func recordFailure(from address: String, at now: ContinuousClock.Instant = .now) -> Verdict {
        failureCount.add(1, ordering: .relaxed)
        let verdict: Verdict = entries.withLock { entries in
            var entry = entries[address] ?? Entry(failures: 0, windowStart: now, lockedUntil: nil)
            if let until = entry.lockedUntil {
                if now < until {
                    return .limited(retryAfterSeconds: Self.seconds(now.duration(to: until)), started: nil)
                }
                entry = Entry(failures: 0, windowStart: now, lockedUntil: nil)
            }
            if entry.windowStart.duration(to: now) > policy.window {
                entry = Entry(failures: 0, windowStart: now, lockedUntil: nil)
            }
            entry.failures += 1
            var verdict = Verdict.counted
            if entry.failures > policy.maxFailures {
                let until = now + policy.lockout
                entry.lockedUntil = until
                let seconds = Self.seconds(policy.lockout)
                verdict = .limited(
                    retryAfterSeconds: seconds,
                    started: Lockout(address: address, failures: entry.failures - 1, retryAfterSeconds: seconds))
            }
            if entries[address] == nil && entries.count >= policy.maxAddresses { prune(&entries, now: now) }
            entries[address] = entry
            return verdict
        }
        switch verdict {
        case .counted: break
        case .limited(_, let started):
            refusalCount.add(1, ordering: .relaxed)
            if started != nil { lockoutCount.add(1, ordering: .relaxed) }
        }
        return verdict
    }

    /// Drops entries whose window and lockout are over; if none is, the oldest half.
    private func prune(_ entries: inout [String: Entry], now: ContinuousClock.Instant) {
        entries = entries.filter { _, entry in
            if let until = entry.lockedUntil { return now < until }
            return entry.windowStart.duration(to: now) <= policy.window
        }
        guard entries.count >= policy.maxAddresses else { return }
        let oldest = entries.sorted { $0.value.windowStart < $1.value.windowStart }.prefix(entries.count / 2)
        for (address, _) in oldest { entries[address] = nil }
    }

    /// Whole seconds, rounded up, at least 1 (`Retry-After`).
    private static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
