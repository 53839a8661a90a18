import Synchronization

/// A value kept once per request thread (`ThreadSlot`): a thread reads and changes its own copy under a lock
/// no other core takes (unless more threads than shards share one), so the caches in front of shared state
/// (the current snapshot's documents, a short link's prepared answer) cost a click no shared cache line.
public final class ThreadSharded<Value: Sendable>: Sendable {
    // Inlinable, so a caller in another module gets it specialized: generic, it asked the runtime for the
    // metadata of `Mutex<Value>` and of its shard on every call (about 650 instructions).
    @usableFromInline
    final class Shard: Sendable {
        @usableFromInline let state: Mutex<Value>
        /// Keeps the next shard's lock off this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

        init(_ value: Value) { state = Mutex(value) }
    }

    @usableFromInline let shards: [Shard]

    /// - Parameter make: each shard's first value.
    public init(_ make: () -> Value) {
        shards = (0..<ThreadSlot.shardCount).map { _ in Shard(make()) }
    }

    /// Runs `body` on the calling thread's value, under its shard's lock.
    @inlinable
    public func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        shards[ThreadSlot.currentShard].state.withLock { body(&$0) }
    }

    /// Runs `body` on every shard's value in turn, each under its lock (a writer resetting the caches).
    public func forEach(_ body: (inout Value) -> Void) {
        for shard in shards { shard.state.withLock { body(&$0) } }
    }
}
