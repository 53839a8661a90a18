import Foundation

/// A connection opened on a thread of its own ("routereg-connect") for a caller that waits for it no longer
/// than its deadline.
///
/// Connecting is bounded as a whole (`ConnectRace`: every host of a failover URL raced, 2 s at least) but may
/// still outlast a short deadline. With an attempt the caller fails at its deadline, and the connect goes on
/// without it, bounded by its own timeout and the session setup's deadline (the caller's, 2 s at least): the
/// thread then ends and holds nothing, and a pool keeps the connection for its next caller.
///
/// The connection has one owner at a time: the connecting thread until `wait` takes it for the caller; when
/// the caller gave up first, `late` gets the outcome on the connecting thread, and a connection it does not
/// keep closes (`PQfinish`) as the outcome goes.
final class ConnectAttempt: @unchecked Sendable {
    // @unchecked: `outcome` and `abandoned` are only touched with `condition` locked, and `outcome` is taken
    // out once, so the connection in it passes from the connecting thread to the caller, never shared.
    private let condition = NSCondition()
    private var outcome: Result<Connection, any Error>?
    private var abandoned = false

    /// Starts connecting to `url` (see `Connection.init`); `late` runs on the connecting thread with the outcome
    /// when the caller's `wait` gave up before it came.
    init(
        url: String, connectTimeoutSeconds: Int, deadline: ContinuousClock.Instant,
        late: @escaping @Sendable (Result<Connection, any Error>) -> Void
    ) {
        let thread = Thread { [self] in
            let outcome = Result {
                try Connection(url: url, connectTimeoutSeconds: connectTimeoutSeconds, deadline: deadline)
            }
            if !hand(outcome) { late(outcome) }
        }
        thread.name = "routereg-connect"
        thread.start()
    }

    /// Gives `outcome` to the waiting caller; false when the caller gave up, and `outcome` stays with the
    /// connecting thread.
    private func hand(_ outcome: Result<Connection, any Error>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !abandoned else { return false }
        self.outcome = outcome
        condition.signal()
        return true
    }

    /// The outcome, or nil when `deadline` came first: then the attempt is abandoned to the connecting thread,
    /// and `late` gets the outcome. Called once.
    func wait(until deadline: ContinuousClock.Instant) -> Result<Connection, any Error>? {
        let wakeAt = Date().addingTimeInterval(max(0, ContinuousClock.now.duration(to: deadline).seconds))
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil && condition.wait(until: wakeAt) {}
        abandoned = outcome == nil
        return outcome.take()
    }
}
