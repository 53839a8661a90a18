import Foundation
import Synchronization

/// How many clicks by people each link with a cap (`ShortLink.maxClicks`) has used: what the database held at
/// the last refresh, raised by every click this server answered since. A click takes one from memory, never
/// waiting on the database; the refresh after each click flush (`RegistryService.refreshClickCaps`) brings in
/// the other servers' clicks, so a fleet overshoots a cap by at most their clicks of one flush interval.
///
/// Both sources are lower bounds of the true count (a stored total, plus clicks counted here and not stored
/// yet), so taking the larger of them never counts a click twice.
public final class ClickCaps: Sendable {
    private let used = Mutex<[String: Int]>([:])

    public init() {}

    /// Counts one click on a capped link and says whether it may be answered (false: the cap was reached).
    public func take(domain: String, code: String, maximum: Int) -> Bool {
        used.withLock { used in
            let key = "\(domain)/\(code)"
            let count = used[key, default: 0]
            guard count < maximum else { return false }
            used[key] = count + 1
            return true
        }
    }

    /// Whether the cap was reached (without counting a click).
    public func isExhausted(domain: String, code: String, maximum: Int) -> Bool {
        used.withLock { $0["\(domain)/\(code)", default: 0] >= maximum }
    }

    /// Raises each link's count to what the database holds, and forgets links no longer capped.
    func raise(to stored: [String: Int]) {
        used.withLock { used in
            var next: [String: Int] = [:]
            for (key, total) in stored { next[key] = max(total, used[key] ?? 0) }
            used = next
        }
    }
}
