import Foundation
import RouteCore

/// A mutual-exclusion lock whose waiters give up at a deadline.
///
/// `Synchronization.Mutex` waits forever; the lock that serializes writes and snapshot rebuilds is held across
/// database round trips, so behind a hung database a waiting request would hold its thread without bound.
final class DeadlineLock: @unchecked Sendable {
    // @unchecked: `held` is only read and written with `condition` locked.
    private let condition = NSCondition()
    private var held = false

    /// Runs `body` holding the lock, or throws DEADLINE_EXCEEDED when it is not free by `deadline`.
    func withLock<T>(until deadline: ContinuousClock.Instant, _ body: () throws -> T) throws -> T {
        let wakeAt = Date().addingTimeInterval(Self.seconds(until: deadline))
        condition.lock()
        while held {
            if !condition.wait(until: wakeAt) && held {
                condition.unlock()
                throw RegistryError(
                    .deadlineExceeded, "another write did not finish before the deadline; nothing was changed")
            }
        }
        held = true
        condition.unlock()
        defer {
            condition.lock()
            held = false
            condition.signal()
            condition.unlock()
        }
        return try body()
    }

    private static func seconds(until deadline: ContinuousClock.Instant) -> TimeInterval {
        let remaining = ContinuousClock.now.duration(to: deadline).components
        return max(0, TimeInterval(remaining.seconds) + TimeInterval(remaining.attoseconds) / 1e18)
    }
}
