import Foundation
import RouteMatching

/// Short-link resolutions kept in memory and in one small file next to the canOpen table's cache, so a short
/// link opened before resolves instantly, and offline.
///
/// An entry is kept for the app version that resolved it (another version would be told other minimums) and
/// used without asking again for `lifetime`; after that it is asked again, and used only when the registry
/// cannot be reached. What the entry contributes is the target and the link's own minimum: the target's
/// route is always decided by the current table, so a switch-off reaches short links with the table.
final class ShortLinkCache: Sendable {
    /// One resolution, for the version that asked.
    struct Entry: Codable, Sendable, Hashable {
        var resolution: ShortLinkResolution
        var version: String
        var resolvedAt: Date
    }

    /// The file's contents: entries by short URL (`https://go.badoo.com/summer`).
    struct File: Codable, Sendable {
        var entries: [String: Entry]
    }

    let file: URL?
    let lifetime: TimeInterval
    let capacity: Int
    private let entries: Locked<[String: Entry]>
    /// Held while the file is written, so writes happen one at a time and the last one writes the newest
    /// entries (`entries`' own lock is never held across file I/O: `route(_:)` reads it on the main thread).
    private let writing = NSLock()

    init(file: URL?, lifetime: TimeInterval, capacity: Int = 500) {
        self.file = file
        self.lifetime = lifetime
        self.capacity = capacity
        let stored = file.flatMap { try? Data(contentsOf: $0) }.flatMap {
            try? JSONDecoder().decode(File.self, from: $0)
        }
        entries = Locked(stored?.entries ?? [:])
    }

    /// The cache file's name for an app and platform (beside `canopen-<app>-<platform>.json`).
    static func fileName(app: String, platform: Platform) -> String {
        "shortlinks-" + CanOpenTableFile.cacheFileName(app: app, platform: platform).dropFirst("canopen-".count)
    }

    /// The entry for `key` made for `version`; with `fresh`, only one younger than `lifetime`.
    func entry(_ key: String, version: Version, fresh: Bool, now: Date = Date()) -> Entry? {
        guard let entry = entries.withLock({ $0[key] }), entry.version == version.canonical else { return nil }
        if fresh, now.timeIntervalSince(entry.resolvedAt) >= lifetime { return nil }
        return entry
    }

    /// Keeps `resolution` for `key`, dropping the oldest entries past `capacity`, and saves the file (best
    /// effort: the entry is in memory either way).
    func store(_ key: String, _ resolution: ShortLinkResolution, version: Version, now: Date = Date()) {
        entries.withLock { entries in
            entries[key] = Entry(resolution: resolution, version: version.canonical, resolvedAt: now)
            if entries.count > capacity {
                let oldest = entries.sorted { $0.value.resolvedAt < $1.value.resolvedAt }.prefix(
                    entries.count - capacity)
                for (key, _) in oldest { entries[key] = nil }
            }
        }
        save()
    }

    /// Forgets `key` (a link the registry no longer knows).
    func remove(_ key: String) {
        if entries.withLock({ $0.removeValue(forKey: key) }) != nil { save() }
    }

    /// Writes the entries as they are when the write starts.
    private func save() {
        guard let file else { return }
        writing.lock()
        defer { writing.unlock() }
        let snapshot = entries.withLock { $0 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(File(entries: snapshot)) else { return }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}
