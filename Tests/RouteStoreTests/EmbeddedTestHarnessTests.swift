import Foundation
import ProcessSpawn
import RegistryTesting
import RouteStore
import Testing

/// The harness every database test relies on: a fresh database per call, on the shared throwaway cluster or
/// on the server `DATABASE_URL` names.
@Suite
struct EmbeddedTestHarnessTests {
    @Test func eachCallGivesADistinctDatabaseAndDropRemovesIt() throws {
        let first = try TestPostgres.makeDatabase(suite: "Harness")
        let second = try TestPostgres.makeDatabase(suite: "Harness")
        defer {
            try? first.drop()
            try? second.drop()
        }
        #expect(first.name != second.name)
        #expect(first.url != second.url)
        #expect(try EmbeddedTestSupport.psql(first.url, "SELECT current_database()") == first.name)
        #expect(try EmbeddedTestSupport.psql(second.url, "SELECT current_database()") == second.name)

        try EmbeddedTestSupport.psql(first.url, "CREATE TABLE only_in_first (id int)")
        #expect(throws: (any Error).self) { try EmbeddedTestSupport.psql(second.url, "SELECT * FROM only_in_first") }

        try first.drop()
        let admin = PostgresServerAdmin(url: first.serverURL)
        #expect(try !admin.databaseExists(first.name))
        #expect(try admin.databaseExists(second.name))
        try first.drop()  // Dropping twice is harmless.
    }

    @Test func dropDisconnectsSessionsStillUsingTheDatabase() throws {
        let database = try TestPostgres.makeDatabase(suite: "Harness")
        let session = try Spawn(
            try PostgresBinaries.locate().path("psql"), ["-X", "-q", "-d", database.url, "-c", "SELECT pg_sleep(30)"],
            standardOutput: .null, standardError: .null
        ).start()
        defer { session.kill() }
        let admin = PostgresServerAdmin(url: database.serverURL)
        let sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.name)'"
        let deadline = Date().addingTimeInterval(10)
        while try EmbeddedTestSupport.psql(database.serverURL, sql) == "0", Date() < deadline { usleep(10_000) }

        try database.drop()
        #expect(try !admin.databaseExists(database.name))
    }

    @Test func withDatabaseURLTheDatabasesAreCreatedOnThatServer() throws {
        let server = try TestPostgres.privateCluster()
        defer { server.destroy() }
        let shared = try TestPostgres.cluster
        #expect(server.port != shared.port)

        for url in [server.url, "host=127.0.0.1 port=\(server.port) user=postgres dbname=postgres"] {
            let database = try TestPostgres.makeDatabase(suite: "External", environment: ["DATABASE_URL": url])
            #expect(try PostgresServerAdmin(url: server.url).databaseExists(database.name))
            #expect(try !PostgresServerAdmin(url: shared.url).databaseExists(database.name))
            #expect(try EmbeddedTestSupport.psql(database.url, "SELECT current_database()") == database.name)
            #expect(!database.goesWithCluster)
            try database.release()  // On a server of its own, releasing drops.
            #expect(try !PostgresServerAdmin(url: server.url).databaseExists(database.name))
        }
    }

    @Test func releasingLeavesASharedClusterDatabaseForTheClusterToDelete() throws {
        let database = try TestPostgres.makeDatabase(suite: "Release", environment: [:])
        #expect(database.goesWithCluster)
        try database.release()
        let admin = PostgresServerAdmin(url: database.serverURL)
        #expect(try admin.databaseExists(database.name))
        try database.drop()
        #expect(try !admin.databaseExists(database.name))
    }

    @Test func withoutDatabaseURLTheSharedClusterIsUsed() throws {
        let database = try TestPostgres.makeDatabase(suite: "Shared", environment: [:])
        defer { try? database.drop() }
        #expect(database.serverURL == (try TestPostgres.cluster.url))
        // Room for many suites' pools at once (the default is 100).
        #expect(try EmbeddedTestSupport.psql(database.url, "SHOW max_connections") == "300")
    }

    @Test func aPrivateClusterStopsRestartsOnTheSamePortAndSurvivesACrash() throws {
        let cluster = try TestPostgres.privateCluster()
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase(suite: "Reliability")
        try EmbeddedTestSupport.psql(database.url, "CREATE TABLE t (id int); INSERT INTO t VALUES (1)")

        try cluster.stop()
        #expect(!cluster.isRunning)
        #expect(!PostgresServerAdmin(url: cluster.url).isAcceptingConnections())
        try cluster.start()
        #expect(cluster.isRunning)
        #expect(try EmbeddedTestSupport.psql(database.url, "SELECT id FROM t") == "1")

        try cluster.crash()
        #expect(!cluster.isRunning)
        try cluster.start()
        #expect(try EmbeddedTestSupport.psql(database.url, "SELECT id FROM t") == "1")

        let directory = cluster.directory
        cluster.destroy()
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
