import Foundation
import RegistryService
import Synchronization

/// Writes counters kept in memory (clicks, token last uses) to the database on a thread of its own, every
/// `interval` while the database is up and writable, and once more on stop: what a crash can lose is one
/// interval (RELIABILITY.md). Its own service, not a duty of the database monitor, so its start, stop and
/// final write are ordered with the rest (and left out where nothing may be written, as in `backup check`).
final class CounterFlushing: ApplicationService {
    let name: String
    private let interval: Duration
    private let timeout: Duration
    private let flush: @Sendable (ContinuousClock.Instant) -> Void
    private let writable: @Sendable () -> Bool
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    /// - Parameters:
    ///   - timeout: how long one periodic write may wait for the database.
    ///   - writable: whether a periodic write may be tried now (database up, not read-only).
    ///   - flush: writes what is counted, by the deadline it is given.
    init(
        _ name: String, interval: Duration, timeout: Duration, writable: @escaping @Sendable () -> Bool,
        flush: @escaping @Sendable (ContinuousClock.Instant) -> Void
    ) {
        self.name = name
        self.interval = interval
        self.timeout = timeout
        self.writable = writable
        self.flush = flush
    }

    /// Counters of `service`: its clicks or its token uses.
    static func writable(_ service: RegistryService) -> @Sendable () -> Bool {
        { service.isDatabaseUp == true && service.readOnlyReason == nil }
    }

    func start() throws {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            while !pause() {
                if writable() { flush(.now + timeout) }
            }
            done.signal()
        }
        thread.name = "routereg-\(name.replacingOccurrences(of: " ", with: "-"))"
        thread.start()
    }

    /// Ends the loop, then writes what is left by `deadline` (the last write of a graceful stop).
    func stop(deadline: ContinuousClock.Instant) {
        stopped.store(true, ordering: .relaxed)
        guard running.exchange(false, ordering: .relaxed) else { return }
        done.wait()
        flush(deadline)
    }

    /// Sleeps one interval in short steps; true when stopped meanwhile.
    private func pause() -> Bool {
        let wake = ContinuousClock.now + interval
        while ContinuousClock.now < wake {
            if stopped.load(ordering: .relaxed) { return true }
            let left = ContinuousClock.now.duration(to: wake).components
            let seconds = Double(left.seconds) + Double(left.attoseconds) / 1e18
            Thread.sleep(forTimeInterval: min(0.05, max(0, seconds)))
        }
        return stopped.load(ordering: .relaxed)
    }
}
