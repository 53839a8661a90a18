/// Brings a database's schema up to date at start-up.
///
/// Pending migrations are applied in name order, each in its own transaction together with its record in
/// `schema_migrations` (name + SHA-256 of the file), so a failure leaves the database at the last complete
/// migration. A session advisory lock makes servers that start together take turns: the second one finds
/// the work done. A start is refused when an applied file has changed since (its checksum differs) or when
/// the database holds migrations this build does not know (it is older than the schema), unless every one of
/// those is an expand (`Migration.isExpand`, recorded in `schema_migrations.expand`) applied after all of this
/// build's: then this build is the previous release on its successor's expanded schema, which the compatibility
/// rule keeps working (ARCHITECTURE.md, "Upgrades").
public struct MigrationRunner: Sendable {
    public let migrations: [Migration]

    /// The advisory lock key serializing runners ("rr-migrt" in ASCII).
    public static let lockKey: Int64 = 0x7272_2d6d_6967_7274

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.name < $1.name }
    }

    /// A runner for the migrations built into this module.
    public static func bundled() throws -> MigrationRunner { MigrationRunner(migrations: try Migration.bundled()) }

    /// Applies what is pending; returns the names applied (empty when up to date).
    @discardableResult
    public func run(on database: Database) throws -> [String] {
        // Generous: another server may hold the migration lock while it applies a long migration.
        try database.withConnection(deadline: .now + .seconds(120)) { connection in
            try connection.query("SELECT pg_advisory_lock(\(MigrationRunner.lockKey))")
            defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(MigrationRunner.lockKey))") }
            return try applyPending(on: connection)
        }
    }

    /// Checks, without changing anything, that `database` has exactly this build's migrations applied: for a
    /// read-only replica, which cannot migrate (its primary does). Throws `.migrationFailed` naming the first
    /// migration that is missing, and what `run` throws for changed or unknown ones.
    public func verify(on database: Database, deadline: ContinuousClock.Instant? = nil) throws {
        try database.withConnection(deadline: deadline) { connection in
            let applied = try appliedChecksums(on: connection)
            for migration in migrations {
                guard let recorded = applied[migration.name] else {
                    throw StoreError(
                        .migrationFailed,
                        detail: "migration \(migration.name) is not applied: migrate the primary with this build first")
                }
                let checksum = try connection.query(
                    "SELECT encode(sha256(convert_to(\(migration.sql), 'UTF8')), 'hex') AS checksum"
                )[0].string("checksum")
                guard recorded == checksum else {
                    throw StoreError(
                        .migrationChanged, detail: "migration \(migration.name) differs from the one applied")
                }
            }
        }
    }

    /// The applied migrations' checksums by name; throws when one is unknown to this build (the database is
    /// newer than the build).
    private func appliedChecksums(on connection: Connection) throws -> [String: String] {
        var applied: [String: String] = [:]
        var expands: Set<String> = []
        // `expand` is read through to_jsonb so a table made before the column existed reads as no expands.
        for row in try connection.query(
            "SELECT name, checksum, coalesce((to_jsonb(m) ->> 'expand')::boolean, false) AS expand FROM schema_migrations m"
        ) {
            let name = try row.string("name")
            applied[name] = try row.string("checksum")
            if try row.bool("expand") { expands.insert(name) }
        }
        let known = Set(migrations.map(\.name))
        let newest = migrations.last?.name ?? ""
        for unknown in applied.keys.sorted() where !known.contains(unknown) {
            guard expands.contains(unknown), unknown > newest else {
                throw StoreError(
                    .migrationFailed, detail: "the database has migration \(unknown), which this build does not know")
            }
        }
        return applied
    }

    private func applyPending(on connection: Connection) throws -> [String] {
        try connection.execute(
            script: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    name text PRIMARY KEY,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                );
                ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS expand boolean NOT NULL DEFAULT false
                """)
        let applied = try appliedChecksums(on: connection)
        var done: [String] = []
        for migration in migrations {
            let checksum = try connection.query(
                "SELECT encode(sha256(convert_to(\(migration.sql), 'UTF8')), 'hex') AS checksum"
            )[0].string("checksum")
            if let recorded = applied[migration.name] {
                guard recorded == checksum else {
                    throw StoreError(
                        .migrationChanged,
                        detail: "migration \(migration.name) changed after it was applied "
                            + "(recorded \(recorded), file \(checksum)); add a new migration instead")
                }
                continue
            }
            try apply(migration, checksum: checksum, on: connection)
            done.append(migration.name)
        }
        return done
    }

    private func apply(_ migration: Migration, checksum: String, on connection: Connection) throws {
        try connection.execute(script: "BEGIN")
        do {
            try connection.execute(script: migration.sql)
            try connection.query(
                "INSERT INTO schema_migrations (name, checksum, expand) VALUES (\(migration.name), \(checksum), \(migration.isExpand))"
            )
            try connection.execute(script: "COMMIT")
        } catch {
            _ = try? connection.execute(script: "ROLLBACK")
            let detail = (error as? StoreError)?.logDetail ?? "\(error)"
            throw StoreError(
                .migrationFailed, sqlState: (error as? StoreError)?.sqlState,
                detail: "migration \(migration.name) failed: \(detail)")
        }
    }
}
