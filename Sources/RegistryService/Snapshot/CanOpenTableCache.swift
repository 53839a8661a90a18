import Foundation
import RouteCore
import Synchronization

/// The canOpen tables of one snapshot, computed when first asked for instead of with the snapshot.
///
/// Why lazy: building every live version's table (and its JSON) on every snapshot made each write cost
/// routes × live versions, and kept every table's bytes in memory (hundreds of megabytes at 10,000 routes
/// × 200 versions) although clients mostly revalidate with `ifNoneMatch`. So the snapshot keeps the ETag of
/// each live table once computed (a few bytes, enough to answer the 304 path without recomputing) and the
/// JSON of the most recently served full tables up to `byteBudget` bytes (only the bytes: the server sends
/// them as they are, and the decoded table would double the memory). Tables of versions that are not live
/// are kept in that budget too: a retired version still installed asks on every launch, and computing its
/// table costs O(routes) each time.
public final class CanOpenTableCache: Sendable {
    private struct State {
        var etags: [ReleaseKey: String] = [:]
        var recent: [ReleaseKey: GeneratedFile] = [:]
        /// Keys of `recent`, least recently used first.
        var order: [ReleaseKey] = []
        var bytes = 0
    }

    /// The most JSON bytes of full tables kept at once.
    public static let byteBudget = 16 << 20

    private let registry: Registry
    private let state = Mutex(State())

    /// Nothing is computed here: a snapshot is made on every write, and even a set of the live versions
    /// cost every write O(every app's releases).
    init(registry: Registry) {
        self.registry = registry
    }

    /// The ETag of a live version's table, if it was computed already.
    public func knownETag(_ key: ReleaseKey) -> String? {
        state.withLock { $0.etags[key] }
    }

    /// The table of `key`'s version (live or not); nil for an unknown app. Always computed; its bytes are
    /// remembered (and a live table's ETag).
    private func table(_ key: ReleaseKey) throws(RegistryError) -> GeneratedCanOpenTable? {
        guard
            let generated = try Generator.canOpenTable(
                registry: registry, app: key.app, platform: key.platform, version: key.version)
        else { return nil }
        remember(key, generated.file)
        return generated
    }

    /// The JSON bytes and ETag of `key`'s table (live or not); nil for an unknown app. Remembered while they
    /// fit the budget, so serving one again costs no generation.
    public func file(_ key: ReleaseKey) throws(RegistryError) -> GeneratedFile? {
        if let cached = state.withLock({ state -> GeneratedFile? in
            guard let file = state.recent[key] else { return nil }
            if let at = state.order.firstIndex(of: key) { state.order.remove(at: at) }
            state.order.append(key)
            return file
        }) {
            return cached
        }
        return try table(key)?.file
    }

    /// Whether the JSON of `key`'s table is held (for tests).
    func holds(_ key: ReleaseKey) -> Bool { state.withLock { $0.recent[key] != nil } }

    private func remember(_ key: ReleaseKey, _ file: GeneratedFile) {
        // ETags only of live versions: any version string can be asked for, and that map has no bound. One
        // scan of the releases, after computing a table that cost more.
        let isLive = registry.releases.contains {
            $0.app == key.app && $0.platform == key.platform && $0.version == key.version && $0.state == .live
        }
        state.withLock { state in
            if isLive { state.etags[key] = file.etag }
            let size = file.bytes.count
            guard state.recent[key] == nil, size <= Self.byteBudget else { return }
            while state.bytes + size > Self.byteBudget, !state.order.isEmpty {
                let evicted = state.order.removeFirst()
                state.bytes -= state.recent.removeValue(forKey: evicted)?.bytes.count ?? 0
            }
            state.recent[key] = file
            state.order.append(key)
            state.bytes += size
        }
    }
}
