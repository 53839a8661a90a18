import Foundation
import Synchronization

/// When each token last authenticated a call, held in memory and written to PostgreSQL in batches
/// (`RegistryService.flushTokenUses`, with the clicks, every few seconds and at a graceful stop): an
/// authenticated call costs a lock and a dictionary store, never a database write.
///
/// Only management calls carry tokens (the serving reads are public), so one lock is enough. A crash loses
/// at most one flush interval of uses; a flush that fails puts its uses back.
public final class TokenUses: Sendable {
    private let uses = Mutex<[String: Date]>([:])

    public init() {}

    /// Records that token `id` authenticated a call at `date`.
    public func record(_ id: String, at date: Date = Date()) {
        uses.withLock { $0[id] = max($0[id] ?? date, date) }
    }

    /// Takes every use not yet flushed.
    public func take() -> [String: Date] {
        uses.withLock { held in
            defer { held = [:] }
            return held
        }
    }

    /// Puts uses back (a flush that failed), keeping the later time of each.
    public func restore(_ taken: [String: Date]) {
        guard !taken.isEmpty else { return }
        uses.withLock { held in
            for (id, date) in taken { held[id] = max(held[id] ?? date, date) }
        }
    }

    /// The use of `id` not flushed yet, if any.
    public func pending(_ id: String) -> Date? { uses.withLock { $0[id] } }
}
