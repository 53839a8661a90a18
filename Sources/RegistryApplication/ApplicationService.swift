/// One part of the running application with a start and a stop: the embedded PostgreSQL, the pool, a
/// background job, the HTTP server. A `ServiceGroup` starts them in one order and stops them in the reverse,
/// so the order of start-up and shutdown is written once instead of by hand in each program that serves.
public protocol ApplicationService: AnyObject, Sendable {
    /// The name shown in logs and in the stop report (`"pool"`, `"click flushing"`, `"http"`).
    var name: String { get }

    /// Starts the part; throwing stops every part started before it (in reverse) and fails the start.
    func start() throws

    /// Stops the part, finishing its work (a final flush, in-flight requests) by `deadline` if it can. The
    /// group waits for it no longer than the deadline and moves on to the next part either way.
    func stop(deadline: ContinuousClock.Instant)
}
