import Dispatch
import Synchronization

/// Wakes `HTTPServer.stop()` when a request finishes or a connection is suspended, so the stop waits for the
/// last in-flight request with a deadline instead of polling.
///
/// Requests pay a fence and one atomic load unless a stop is waiting; only then do they signal. No wake-up is
/// lost: the stopper raises `draining` before it evaluates its predicate, and a request changes what the
/// predicate reads before it looks at `draining`, with a full fence between on both sides, so either the
/// stopper sees the change or the request sees the stopper. The semaphore keeps a signal that comes before
/// the stopper waits; the stopper re-checks its predicate after every signal, so spare ones cost a loop.
final class DrainSignal: Sendable {
    private let draining = Atomic<Bool>(false)
    private let signal = DispatchSemaphore(value: 0)

    /// Waits until `done` holds or `limit` passes on the monotonic clock (checks once when `limit` is not
    /// positive). `done` is evaluated at the start and after every `changed()`.
    /// - Returns: whether `done` held.
    @discardableResult
    func wait(upTo limit: Duration, until done: () -> Bool) -> Bool {
        let nanos = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        let end = DispatchTime.now() + .nanoseconds(Int(clamping: max(0, nanos)))
        draining.store(true, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        defer { draining.store(false, ordering: .relaxed) }
        while !done() {
            if signal.wait(timeout: end) == .timedOut { return done() }
        }
        return true
    }

    /// Call after a change a stopper may be waiting for (a request finished, a connection was suspended).
    func changed() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard draining.load(ordering: .relaxed) else { return }
        signal.signal()
    }
}
