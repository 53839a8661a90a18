import Foundation
import RouteMatching

/// What a revalidation did.
public enum RefreshOutcome: Sendable, Hashable {
    /// The registry sent a new table; it is in use and saved.
    case updated
    /// The table in use is current.
    case notModified
}

extension CanOpenStore {
    /// Revalidates the table with the registry (the cacheable `GET /canopen/v1/…` with `If-None-Match`,
    /// or `CanOpen.GetTable` on a registry without it), replacing and saving it when it changed.
    /// Concurrent calls share one request.
    ///
    /// On failure (offline, registry down) the table in use stays in use and the error is thrown:
    /// decisions never depend on the registry being reachable.
    @discardableResult
    public func refresh() async throws -> RefreshOutcome {
        let task = state.withLock { current -> Task<RefreshOutcome, any Error> in
            if let running = current.inFlight { return running }
            // The lock is held while the task is stored, so its `defer` (which takes the lock) always
            // clears this task, never an earlier or later one.
            let task = Task { [self] in
                defer { state.withLock { $0.inFlight = nil } }
                return try await fetch()
            }
            current.inFlight = task
            return task
        }
        return try await task.value
    }

    /// `refresh()` when the table was never confirmed or was last confirmed more than `refreshInterval`
    /// ago; errors are swallowed (the table in use stays). For app-start and foreground hooks.
    public func refreshIfStale() async {
        _ = try? await refresh(ifOlderThan: refreshInterval)
    }

    /// `refresh()` unless the registry confirmed the table less than `maxAge` seconds ago; nil when it
    /// did (nothing was sent).
    ///
    /// For the moments a kill switch should arrive sooner than the hourly revalidation:
    /// `refresh(ifOlderThan: 60)` when the app comes to the foreground (a cheap 304 when nothing
    /// changed), `refresh(ifOlderThan: 0)` on a silent push sent after switching a route off.
    @discardableResult
    public func refresh(ifOlderThan maxAge: TimeInterval) async throws -> RefreshOutcome? {
        let fresh = state.withLock { state in
            guard let last = state.lastChecked, state.compiled != nil else { return false }
            return Date().timeIntervalSince(last) < maxAge
        }
        return fresh ? nil : try await refresh()
    }

    /// Revalidates now (app start), then every `refreshInterval` seconds, retrying after a minute while
    /// the registry is unreachable; on iOS also when the app enters the foreground with a stale table.
    /// Calling it again while running does nothing.
    public func startAutoRefresh() {
        state.withLock { current in
            guard current.autoRefresh == nil else { return }
            let store = WeakStore(store: self)
            let interval = refreshInterval
            current.autoRefresh = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.refreshLoop(store, interval: interval) }
                    #if canImport(UIKit)
                        group.addTask { await Self.foregroundLoop(store) }
                    #endif
                }
            }
        }
    }

    /// Stops what `startAutoRefresh()` started. A refresh already in flight completes.
    public func stopAutoRefresh() {
        let task = state.withLock { state -> Task<Void, Never>? in
            defer { state.autoRefresh = nil }
            return state.autoRefresh
        }
        task?.cancel()
    }

    /// The loops hold the store weakly, and strongly only during a round, so a store nobody uses any more
    /// goes away (and its `deinit` cancels them).
    struct WeakStore: Sendable {
        weak var store: CanOpenStore?
    }

    private static func refreshLoop(_ weakStore: WeakStore, interval: TimeInterval) async {
        while !Task.isCancelled {
            let succeeded: Bool
            if let store = weakStore.store {
                succeeded = (try? await store.refresh()) != nil
            } else {
                return
            }
            let wait = succeeded ? interval : min(interval, 60)
            try? await Task.sleep(nanoseconds: UInt64(max(wait, 0.001) * 1_000_000_000))
        }
    }

    #if canImport(UIKit)
        /// Revalidates a stale table when the app returns to the foreground (sleeping tasks do not count
        /// time while the app is suspended). The raw notification name keeps this off the main actor.
        private static func foregroundLoop(_ weakStore: WeakStore) async {
            let name = Notification.Name("UIApplicationWillEnterForegroundNotification")
            for await _ in NotificationCenter.default.notifications(named: name) {
                guard let store = weakStore.store else { return }
                await store.refreshIfStale()
            }
        }
    #endif

    /// One table round trip and its effect on the state.
    private func fetch() async throws -> RefreshOutcome {
        guard let version else { throw versionProblem ?? CanOpenStoreError.unknownVersion(nil) }
        let etag = state.withLock { $0.compiled == nil ? nil : $0.etag }
        let answer = try await client.canOpenTableByGET(
            app: app, platform: platform, version: version, ifNoneMatch: etag)
        if answer.notModified, etag != nil {
            update(tableChanges: false) { $0.lastChecked = Date() }
            return .notModified
        }
        guard let table = answer.table else {
            throw ClientError.invalidResponse(reason: "the registry returned no table")
        }
        let file = CanOpenTableFile(etag: answer.etag, table: table)
        guard file.matches(app: app, platform: platform, version: version) else {
            throw ClientError.invalidResponse(reason: "the registry returned the table of another version")
        }
        let compiled = CompiledCanOpenTable(table)
        update(tableChanges: true) { state in
            state.compiled = compiled
            state.etag = answer.etag
            state.source = .server
            state.lastChecked = Date()
        }
        // Best effort: the table is in use either way; a failed write only means the next launch starts
        // from the previous cache file or the bundled table.
        if let cacheFile { try? file.write(to: cacheFile) }
        return .updated
    }
}
