import Foundation
import Synchronization

/// A small number for the calling thread, fixed when the thread first asks: threads are numbered in the
/// order they ask, so the server's few request threads each pick their own shard of a per-thread structure
/// (the log's queue, the metrics' counters).
public enum ThreadSlot {
    /// How many shards a per-thread structure has (a power of two).
    public static let shardCount = 8

    /// The calling thread's shard, in `0..<shardCount`.
    public static var currentShard: Int { current & (shardCount - 1) }

    /// The calling thread's number (from 0).
    public static var current: Int {
        if let raw = pthread_getspecific(key) { return Int(bitPattern: raw) - 1 }
        let number = next.add(1, ordering: .relaxed).oldValue
        // Stored plus one: a thread that never asked reads nil.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number + 1))
        return number
    }

    private static let next = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
