import Synchronization

/// A value set once a service has started and read by the services after it (a `Mutex` alone cannot be
/// captured by their closures, being non-copyable).
final class Slot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// The value, nil until set.
    var current: Value? { value.withLock { $0 } }

    /// Sets the value.
    func set(_ new: Value) { value.withLock { $0 = new } }
}
