import Foundation

/// What the runtime last observed; nil until first observed.
struct HealthState {
    var databaseUp: Bool?
    var listenerConnected: Bool?
}

extension RegistryService {
    /// Whether the database answered the runtime's last probe (nil before the first).
    public var isDatabaseUp: Bool? { health.withLock { $0.databaseUp } }

    /// Whether the change listener holds LISTEN on a live session (nil when the server does not listen:
    /// a replica polls instead).
    public var isListenerConnected: Bool? { health.withLock { $0.listenerConnected } }

    /// Why writes are refused (the database is a hot standby, or `--read-only`), nil on a primary.
    public var readOnlyReason: String? { replica.withLock { $0 } }

    /// Marks the server as reading a hot standby (`reason` names it) or, with nil, a primary again.
    public func setReadOnly(_ reason: String?) {
        if options.readOnly { return }
        replica.withLock { $0 = reason }
    }

    /// Records a probe of the database; returns the previous value (to log changes once).
    @discardableResult
    public func recordDatabase(up: Bool) -> Bool? {
        health.withLock { state in
            defer { state.databaseUp = up }
            return state.databaseUp
        }
    }

    /// Records the change listener's state; returns the previous value.
    @discardableResult
    public func recordListener(connected: Bool) -> Bool? {
        health.withLock { state in
            defer { state.listenerConnected = connected }
            return state.listenerConnected
        }
    }

    /// `/readyz`: the server can serve — a snapshot is loaded and was confirmed against the database within
    /// `maxSnapshotAge`. Not whether the database answers right now: reads never need it, and a fleet that
    /// failed readiness whenever its database did would be drained whole by the load balancer during a
    /// failover. Reads memory only; never waits.
    public func isReady(now: Date = Date()) -> Bool {
        guard let refreshed = snapshotRefreshedAt else { return false }
        return now.timeIntervalSince(refreshed) <= options.maxSnapshotAge.seconds
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
