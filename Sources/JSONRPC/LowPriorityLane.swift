import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One thread at the lowest CPU priority (`SCHED_IDLE`) running work in arrival order from a bounded queue: where
/// a request whose cost grows with what the caller sent (a `CanOpen.Check` of a long URL against an app's
/// rules) runs, so that however many of them arrive, the server's own threads (an AASA GET, an ordinary
/// Check) always get the CPU first, and at most one core goes to them.
///
/// The thread starts with the first work and ends after `idle` without any, so a lane costs nothing while
/// unused and needs no stop (a process holding many servers, as the tests do, holds no idle threads).
public final class LowPriorityLane: Sendable {
    /// The most pieces of work waiting; `submit` refuses more.
    public let capacity: Int
    private let idle: Duration
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    private struct State: ~Copyable {
        var waiting: [@Sendable () -> Void] = []
        var running = false
    }

    public init(capacity: Int = 32, idle: Duration = .seconds(2)) {
        precondition(capacity > 0, "a lane must hold at least one piece of work")
        self.capacity = capacity
        self.idle = idle
    }

    /// Queues `work`; false, running nothing, when `capacity` pieces are already waiting.
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        submit(preparing: { work })
    }

    /// Queues the work `prepare` makes, calling it only when there is room (so what it sets up, such as
    /// suspending a connection, happens only for work that will run); false when there is none.
    public func submit(preparing prepare: () -> @Sendable () -> Void) -> Bool {
        let start = state.withLock { state -> Bool? in
            guard state.waiting.count < capacity else { return nil }
            state.waiting.append(prepare())
            if state.running { return false }
            state.running = true
            return true
        }
        guard let start else { return false }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "routereg.low-priority"
            thread.start()
        }
        ready.signal()
        return true
    }

    /// How many pieces of work wait (for tests and metrics).
    public var waiting: Int { state.withLock { $0.waiting.count } }

    private func run() {
        Self.lowerPriority()
        let idleSeconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        while true {
            if ready.wait(timeout: .now() + idleSeconds) == .timedOut {
                // A `submit` that queued work before this check is served; one after it starts a new thread.
                let ends = state.withLock { state -> Bool in
                    if state.waiting.isEmpty { state.running = false }
                    return !state.running
                }
                if ends { return }
                continue
            }
            let work = state.withLock { $0.waiting.removeFirst() }
            work()
        }
    }

    /// Linux's `SCHED_IDLE` policy (bits/sched.h; not visible to Swift without `_GNU_SOURCE`).
    public static let schedIdle: Int32 = 5

    /// The lane's thread under `SCHED_IDLE`, and at nice 19 should that be refused: a nice value alone still
    /// lets the lane's work hold the core for a whole time slice once it runs, so on a one-core server a GET
    /// waited behind a worst-case Check (p99 +52 % in `make bench`'s pinned bounds run); any ordinary thread
    /// that wakes preempts a `SCHED_IDLE` one at once. Both are per thread on Linux and never undone (that needs
    /// a privilege a service user lacks), which is why the lane has a thread of its own.
    private static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            var parameters = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, schedIdle, &parameters)
        #endif
    }
}
