import Dispatch
import Foundation
import Synchronization

/// Starts services in order and stops them in the reverse order, each stop with its own deadline.
///
/// Why each stop runs on a thread of its own: `stop(deadline:)` is synchronous and may block on a socket or a
/// database call past its deadline; the group waits until the deadline and then goes on stopping the rest,
/// so one stuck part cannot keep the process from exiting (the stuck thread is reported, not joined).
public final class ServiceGroup: Sendable {
    /// How one service's stop ended.
    public struct StopOutcome: Sendable, Equatable {
        /// The service's `name`.
        public var name: String
        /// False when the stop was still running at its deadline.
        public var finishedInTime: Bool

        /// The outcome of `name`'s stop.
        public init(name: String, finishedInTime: Bool) {
            self.name = name
            self.finishedInTime = finishedInTime
        }
    }

    private let services: [any ApplicationService]
    private let stopTimeout: Duration
    private let log: @Sendable (String) -> Void
    /// The services started so far, in start order; stopping empties it.
    private let started = Mutex<[any ApplicationService]>([])

    /// A group of `services` in start order; each stop is given `stopTimeout` from the moment it begins.
    public init(
        _ services: [any ApplicationService], stopTimeout: Duration = .seconds(5),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.services = services
        self.stopTimeout = stopTimeout
        self.log = log
    }

    /// Starts every service in order. When one throws, the ones already started are stopped in reverse
    /// and the error is rethrown, so a failed start leaves nothing running.
    public func start() throws {
        for service in services {
            do {
                try service.start()
            } catch {
                log("\(service.name) did not start: \(error)")
                _ = stop()
                throw error
            }
            started.withLock { $0.append(service) }
        }
    }

    /// Stops the started services in reverse start order, each given `stopTimeout`; returns how each stop
    /// ended. Calling it again (or after a failed start) stops nothing twice.
    @discardableResult
    public func stop() -> [StopOutcome] {
        let running = started.withLock { list in
            defer { list.removeAll() }
            return list
        }
        return running.reversed().map { service in
            let deadline = ContinuousClock.now.advanced(by: stopTimeout)
            let done = DispatchSemaphore(value: 0)
            // A thread of its own, not a shared queue: a queue whose threads are all busy (or held by an
            // earlier stuck stop) would delay this stop past its deadline before it even began.
            let thread = Thread {
                service.stop(deadline: deadline)
                done.signal()
            }
            thread.name = "routereg-stop"
            thread.start()
            let inTime = done.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(until: deadline))) == .success
            if !inTime { log("\(service.name) did not stop within \(stopTimeout)") }
            return StopOutcome(name: service.name, finishedInTime: inTime)
        }
    }

    /// Nanoseconds from now to `deadline`, zero when it has passed.
    private static func nanoseconds(until deadline: ContinuousClock.Instant) -> Int {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
