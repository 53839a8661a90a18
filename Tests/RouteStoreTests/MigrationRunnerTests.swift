import Foundation
import RouteStore
import Testing

@Suite("Migration runner")
struct MigrationRunnerTests {
    let fixture: StoreTestDatabase

    init() throws { fixture = try StoreTestDatabase(suite: "migrations", migrate: false) }

    private func appliedNames() throws -> [String] {
        try fixture.database.withConnection { connection in
            try connection.query("SELECT name FROM schema_migrations ORDER BY name").map { try $0.string("name") }
        }
    }

    private func tableExists(_ name: String) throws -> Bool {
        try fixture.database.withConnection { connection in
            try connection.query("SELECT to_regclass(\(name)) IS NOT NULL AS present")[0].bool("present")
        }
    }

    @Test func bundledMigrationsShipWithTheModule() throws {
        let migrations = try Migration.bundled()
        #expect(migrations.first?.name == "0001_initial")
        #expect(migrations.map(\.name) == migrations.map(\.name).sorted())
    }

    @Test func freshDatabaseGetsEveryMigrationAndARerunIsANoOp() throws {
        let runner = try MigrationRunner.bundled()
        let applied = try runner.run(on: fixture.database)
        #expect(applied == runner.migrations.map(\.name))
        #expect(try appliedNames() == runner.migrations.map(\.name))
        for table in ["apps", "domains", "routes", "releases", "revisions", "audit", "tokens"] {
            #expect(try tableExists(table), "table \(table)")
        }
        #expect(try runner.run(on: fixture.database) == [])
        #expect(try appliedNames() == runner.migrations.map(\.name))
    }

    @Test func aChangedAppliedFileIsRefused() throws {
        let runner = try MigrationRunner.bundled()
        try runner.run(on: fixture.database)
        var changed = runner.migrations
        changed[0].sql += "\n-- edited after release\n"
        let error = try #require(throws: StoreError.self) {
            try MigrationRunner(migrations: changed).run(on: fixture.database)
        }
        #expect(error.code == .migrationChanged)
        #expect(!error.description.contains("0001"))
    }

    @Test func aDatabaseNewerThanTheBuildIsRefused() throws {
        let runner = try MigrationRunner.bundled()
        let newer = MigrationRunner(
            migrations: runner.migrations + [Migration(name: "9000_newer", sql: "CREATE TABLE newer_table (id int)")])
        try newer.run(on: fixture.database)
        let error = try #require(throws: StoreError.self) { try runner.run(on: fixture.database) }
        #expect(error.code == .migrationFailed)
    }

    /// The compatibility rule (ARCHITECTURE.md, "Upgrades"): a successor's expand-only migrations leave this build
    /// working, so it starts on them; anything else it does not know still refuses the start.
    @Test func theNextReleasesExpandMigrationsLetThisBuildStart() throws {
        let runner = try MigrationRunner.bundled()
        let expand = Migration(
            name: "9000_next_column", sql: "\(Migration.expandMarker)\nALTER TABLE routes ADD COLUMN next_note text;")
        #expect(expand.isExpand)
        #expect(!Migration(name: "9000_x", sql: "-- routereg: expanded\nSELECT 1;").isExpand)
        try MigrationRunner(migrations: runner.migrations + [expand]).run(on: fixture.database)
        #expect(try runner.run(on: fixture.database) == [])
        try runner.verify(on: fixture.database)

        let contract = Migration(name: "9001_drop_column", sql: "ALTER TABLE routes DROP COLUMN next_note;")
        try MigrationRunner(migrations: runner.migrations + [expand, contract]).run(on: fixture.database)
        let error = try #require(throws: StoreError.self) { try runner.run(on: fixture.database) }
        #expect(error.code == .migrationFailed)
        #expect(error.logDetail.contains("9001_drop_column"), "\(error.logDetail)")
        #expect(throws: StoreError.self) { try runner.verify(on: fixture.database) }
    }

    /// An unknown expand that sorts before this build's newest migration is a diverged history, not a successor.
    @Test func anUnknownExpandAmongThisBuildsMigrationsIsRefused() throws {
        let runner = try MigrationRunner.bundled()
        let sideways = Migration(
            name: "0001_zz_elsewhere", sql: "\(Migration.expandMarker)\nCREATE TABLE elsewhere (id int);")
        try MigrationRunner(migrations: runner.migrations + [sideways]).run(on: fixture.database)
        let error = try #require(throws: StoreError.self) { try runner.run(on: fixture.database) }
        #expect(error.logDetail.contains("0001_zz_elsewhere"), "\(error.logDetail)")
    }

    @Test func aFailingMigrationLeavesNothingBehind() throws {
        let runner = try MigrationRunner.bundled()
        let broken = Migration(
            name: "9001_broken", sql: "CREATE TABLE half_done (id int);\nINSERT INTO half_done VALUES (1 / 0);")
        let error = try #require(throws: StoreError.self) {
            try MigrationRunner(migrations: runner.migrations + [broken]).run(on: fixture.database)
        }
        #expect(error.code == .migrationFailed)
        #expect(error.sqlState == SQLState(rawValue: "22012"))
        #expect(try !tableExists("half_done"))
        #expect(try appliedNames() == runner.migrations.map(\.name))
    }

    @Test func runnersStartingTogetherApplyEachMigrationOnce() throws {
        let runner = try MigrationRunner.bundled()
        let url = fixture.url
        let outcomes = runConcurrently(4) { _ -> Result<[String], StoreError> in
            let database = Database(url: url, poolSize: 1)
            defer { database.close() }
            do { return .success(try runner.run(on: database)) } catch {
                return .failure(error as! StoreError)
            }
        }
        let applied = try outcomes.map { try $0.get() }
        #expect(applied.filter { !$0.isEmpty } == [runner.migrations.map(\.name)])
        #expect(try appliedNames() == runner.migrations.map(\.name))
    }
}
