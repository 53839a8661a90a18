import Foundation

/// A value behind an `NSLock`.
///
/// Synchronization's `Mutex` would do, but it needs iOS 18 and the package supports iOS 16.
/// `@unchecked Sendable` is safe because `value` is only reached through `withLock`, which holds the lock
/// for the whole access, and `Value` itself is `Sendable`, so nothing handed out can race.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Keep `body` short and never block in it:
    /// `CanOpenStore.decide` takes the same lock on the main thread.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
