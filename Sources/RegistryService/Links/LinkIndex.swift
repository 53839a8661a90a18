import Foundation
import RouteCore
import RouteStore
import Synchronization

/// Every short link in memory, by domain and code, so a click is answered without the database.
///
/// Kept apart from the snapshot: a link write changes nothing the documents are generated from, so it
/// updates this index alone (the links written since the last change id it saw), never the whole
/// snapshot. Lookups take one lock, held for a dictionary read.
public final class LinkIndex: Sendable {
    struct Key: Hashable {
        var domain: String
        var code: String
    }

    private struct State {
        var links: [Key: StoredLink] = [:]
        /// The newest `change_id` applied.
        var seen: Int64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The link of `code` on `domain`, deleted or expired ones included (the caller decides what it shows).
    public func link(domain: String, code: String) -> StoredLink? {
        state.withLock { $0.links[Key(domain: domain, code: code)] }
    }

    /// How many links are held (deleted ones included).
    public var count: Int { state.withLock { $0.links.count } }

    /// The newest change applied.
    var seen: Int64 { state.withLock { $0.seen } }

    /// Applies links read from the database (newer changes replace older ones).
    func apply(_ changed: [StoredLink]) {
        guard !changed.isEmpty else { return }
        state.withLock { state in
            for link in changed {
                let key = Key(domain: link.link.domain, code: link.link.code)
                if let held = state.links[key], held.changeID > link.changeID { continue }
                state.links[key] = link
                state.seen = max(state.seen, link.changeID)
            }
        }
    }

    /// Reads every link written since the last one applied, in pages, within `deadline`.
    func catchUp(from store: Store, deadline: ContinuousClock.Instant) throws {
        while true {
            let after = seen
            let page = try store.read(deadline: deadline) { tx in
                try store.links.changed(after: after, limit: 10_000, in: tx)
            }
            apply(page)
            if page.count < 10_000 { return }
        }
    }
}
