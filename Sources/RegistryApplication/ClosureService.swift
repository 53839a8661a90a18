/// An `ApplicationService` made of two closures: wraps a part that has its own start and stop (the pool,
/// the delivery watch, the HTTP server) without a type per part.
public final class ClosureService: ApplicationService {
    /// See `ApplicationService.name`.
    public let name: String
    private let onStart: @Sendable () throws -> Void
    private let onStop: @Sendable (ContinuousClock.Instant) -> Void

    /// A service named `name` that runs `start` to start and `stop` (given its deadline) to stop.
    public init(
        _ name: String, start: @escaping @Sendable () throws -> Void = {},
        stop: @escaping @Sendable (ContinuousClock.Instant) -> Void
    ) {
        self.name = name
        onStart = start
        onStop = stop
    }

    /// See `ApplicationService.start()`.
    public func start() throws { try onStart() }

    /// See `ApplicationService.stop(deadline:)`.
    public func stop(deadline: ContinuousClock.Instant) { onStop(deadline) }
}
