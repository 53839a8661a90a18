import Dispatch
import Foundation
import RouteCore
import Synchronization
import ThreadShards

/// Holds the current `Snapshot` and swaps it atomically; wakes long-poll watchers whose document changed.
///
/// Readers take no lock another core takes: each thread keeps the snapshot it last read with the install it
/// came from (`ThreadSharded`), and a read compares that with one atomic load; only the first read after a
/// swap takes the shared mutex. A swap empties every thread's copy, so no idle thread keeps an old snapshot
/// alive. Watchers never hold a thread: they are callbacks completed on a swap or on a timer.
public final class SnapshotHolder: Sendable {
    private struct Watcher {
        let key: DocumentKey
        let etag: String?
        let complete: @Sendable (ServedDocument?) -> Void
    }

    private struct State {
        var snapshot: Snapshot
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 0
    }

    /// A thread's copy of the current snapshot and the install count it was read at.
    private struct View: Sendable {
        var install: UInt64 = .max
        var snapshot: Snapshot?
    }

    private let state: Mutex<State>
    private let views = ThreadSharded { View() }
    /// Counts installs, so readers that cache per snapshot can check for a new one without the mutex.
    private let installs = Atomic<UInt64>(0)
    private let timers = DispatchQueue(label: "routereg.watch-timers")

    public init(_ snapshot: Snapshot = .empty) {
        state = Mutex(State(snapshot: snapshot))
    }

    /// The current snapshot.
    public var current: Snapshot {
        let install = installs.load(ordering: .acquiring)
        if let kept = views.withLock({ $0.install == install ? $0.snapshot : nil }) { return kept }
        // Read after the count, so at least that new; a newer one is kept under the older count and read
        // again next time.
        let snapshot = state.withLock { $0.snapshot }
        views.withLock { $0 = View(install: install, snapshot: snapshot) }
        // A swap between the two reads may have emptied the copies before this one was kept: let go of it
        // then, so it cannot keep a replaced snapshot alive (a swap after this check empties it itself).
        if installs.load(ordering: .acquiring) != install { views.withLock { $0 = View() } }
        return snapshot
    }

    /// How many snapshots were installed so far: changes whenever `current` does. Reading it costs one
    /// atomic load; a snapshot taken after reading it is at least that new.
    public var installCount: UInt64 { installs.load(ordering: .acquiring) }

    /// Installs `snapshot` if it is not older than the current one (or whatever its generation when
    /// `replacing`: a full load after the served state vanished from the database), and completes every
    /// watcher whose document now has a different ETag. Returns whether it was installed.
    @discardableResult
    public func install(_ snapshot: Snapshot, replacing: Bool = false) -> Bool {
        let woken: [(Watcher, ServedDocument?)]? = state.withLock { state in
            guard replacing || snapshot.generation >= state.snapshot.generation else { return nil }
            state.snapshot = snapshot
            installs.add(1, ordering: .releasing)
            var woken: [(Watcher, ServedDocument?)] = []
            for (id, watcher) in state.watchers {
                let document = snapshot.documents[watcher.key]
                if document?.etag != watcher.etag {
                    woken.append((watcher, document))
                    state.watchers[id] = nil
                }
            }
            return woken
        }
        guard let woken else { return false }
        views.forEach { $0 = View() }
        // Answering a watcher encodes its document: do it off the installing thread, which may be a write
        // holding the rebuild lock, so thousands of watchers never slow a publish down.
        if !woken.isEmpty {
            DispatchQueue.global().async {
                for (watcher, document) in woken { watcher.complete(document) }
            }
        }
        return true
    }

    /// The most watchers held at once; past it `watch` refuses (each holds a suspended connection).
    public static let maxWatchers = 10_000

    /// Calls `complete` once: at once if the document's ETag differs from `etag`, else when it changes or
    /// after `timeout` (with the unchanged document). Returns false, without calling `complete`, when
    /// `maxWatchers` are already waiting.
    @discardableResult
    public func watch(
        _ key: DocumentKey, etag: String?, timeout: Duration, complete: @escaping @Sendable (ServedDocument?) -> Void
    ) -> Bool {
        enum Registration {
            case changed
            case full
            case waiting(UInt64)
        }
        let registration: Registration = state.withLock { state in
            if state.snapshot.documents[key]?.etag != etag { return .changed }
            guard state.watchers.count < Self.maxWatchers else { return .full }
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = Watcher(key: key, etag: etag, complete: complete)
            return .waiting(id)
        }
        let id: UInt64
        switch registration {
        case .full: return false
        case .changed:
            complete(current.documents[key])
            return true
        case .waiting(let registered): id = registered
        }
        let nanoseconds =
            Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000)
        timers.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [self] in
            let expired = state.withLock { state -> Watcher? in state.watchers.removeValue(forKey: id) }
            if let expired { expired.complete(current.documents[expired.key]) }
        }
        return true
    }

    /// Watchers waiting now (for metrics and tests).
    public var watcherCount: Int { state.withLock { $0.watchers.count } }
}
