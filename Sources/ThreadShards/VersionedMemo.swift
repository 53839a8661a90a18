/// Values made for one version of what they come from (a snapshot's install count, the link index's version),
/// kept per request thread: a thread's lookup takes only its own lock, and a value is good while the version
/// it was made for is the current one. The well-known files, canOpen tables, short links' answers and QR codes
/// are all remembered this way.
///
/// A newer version starts a thread's table over; a value made for an older one is not kept (a reader that read
/// the version before a swap must not reset the table of the newer one). A full table starts over too: it only
/// saves making a value again.
public final class VersionedMemo<Key: Hashable & Sendable, Value: Sendable, Version: Comparable & Sendable>: Sendable {
    @usableFromInline
    struct Table: Sendable {
        @usableFromInline var version: Version
        @usableFromInline var values: [Key: Value] = [:]

        @usableFromInline init(version: Version) { self.version = version }
    }

    // Inlinable, like `ThreadSharded`: a lookup in another module is specialized, not a generic call.
    @usableFromInline let tables: ThreadSharded<Table>
    @usableFromInline let limit: Int

    /// - Parameters:
    ///   - initial: a version no value is made for (the tables start empty at it).
    ///   - limit: most values a thread keeps before it starts over.
    public init(initial: Version, limit: Int = .max) {
        tables = ThreadSharded { Table(version: initial) }
        self.limit = limit
    }

    /// The value kept for `key` on this thread, if it was made for `version`.
    @inlinable
    public func value(_ key: Key, version: Version) -> Value? {
        tables.withLock { $0.version == version ? $0.values[key] : nil }
    }

    /// Keeps `value`, made for `version`, on this thread.
    @inlinable
    public func keep(_ value: Value, _ key: Key, version: Version) {
        tables.withLock { table in
            if version > table.version || (version == table.version && table.values.count >= limit) {
                table = Table(version: version)
            }
            if version == table.version { table.values[key] = value }
        }
    }
}
