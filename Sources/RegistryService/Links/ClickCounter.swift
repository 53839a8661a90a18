import Foundation
import RouteStore
import Synchronization

/// Clicks counted in memory, per link × day × platform × outcome, and written to PostgreSQL in batches
/// (`RegistryService.flushClicks`, every few seconds and at a graceful stop): a click costs a lock of its
/// thread's shard and a dictionary increment, never a database write.
///
/// What a crash can lose is bounded: the counts since the last flush (at most one flush interval of
/// clicks; RELIABILITY.md). A flush that fails puts its counts back, so a database outage loses none.
public final class ClickCounter: Sendable {
    private final class Shard: Sendable {
        let counts = Mutex<[ClickKey: Int]>([:])
    }

    private static let shardCount = 8
    private let shards: [Shard] = (0..<shardCount).map { _ in Shard() }

    public init() {}

    /// Counts one click.
    public func count(_ key: ClickKey) {
        // Threads spread over the shards by their id, so the lock rarely moves between cores.
        let slot = Int(UInt(bitPattern: pthread_self().hashValue) % UInt(Self.shardCount))
        shards[slot].counts.withLock { $0[key, default: 0] += 1 }
    }

    /// Takes every count not yet flushed.
    public func take() -> [ClickKey: Int] {
        var all: [ClickKey: Int] = [:]
        for shard in shards {
            let taken = shard.counts.withLock { counts in
                defer { counts = [:] }
                return counts
            }
            all.merge(taken, uniquingKeysWith: +)
        }
        return all
    }

    /// Puts counts back (a flush that failed).
    public func restore(_ counts: [ClickKey: Int]) {
        guard !counts.isEmpty else { return }
        shards[0].counts.withLock { $0.merge(counts, uniquingKeysWith: +) }
    }

    /// The counts of one link not yet flushed.
    public func pending(domain: String, code: String) -> [ClickKey: Int] {
        var found: [ClickKey: Int] = [:]
        for shard in shards {
            shard.counts.withLock { counts in
                for (key, count) in counts where key.domain == domain && key.code == code {
                    found[key, default: 0] += count
                }
            }
        }
        return found
    }
}
