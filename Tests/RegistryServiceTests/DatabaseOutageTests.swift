import Foundation
import RegistryTesting
import Testing

/// PostgreSQL going away: reads keep answering from the snapshot, writes fail UNAVAILABLE, all recovers.
///
/// `/readyz` means "can serve": a snapshot confirmed against the database within `maxSnapshotAge`. These
/// tests set it to 2 s and prove both sides: ready while the outage is shorter than that (a fleet is not
/// drained by a failover), not ready once the snapshot is older, ready again when the database returns.
@Suite(.serialized) struct DatabaseOutageTests {
    @Test func readsSurviveWritesFailAndEverythingRecovers() async throws {
        let cluster = try TestPostgres.privateCluster()
        defer { cluster.destroy() }
        let server = try TestRegistryServer(
            suite: "outage", database: try cluster.makeDatabase(suite: "outage"), maxSnapshotAge: .seconds(2))
        defer { server.stop() }
        try await seedBadoo(server)
        let (before, beforeResponse) = try await server.get(
            "/.well-known/apple-app-site-association", host: "m.badoo.com")
        let revision = try await server.result("Associations.Get", ["host": "m.badoo.com"]).int("revision")

        try cluster.stop()
        let stoppedAt = ContinuousClock.now
        #expect(try await server.get("/readyz").1.statusCode == 200, "an outage shorter than the bound stays ready")

        let (during, duringResponse) = try await server.get(
            "/.well-known/apple-app-site-association", host: "m.badoo.com")
        #expect(duringResponse.statusCode == 200)
        #expect(during == before)
        #expect(duringResponse.value(forHTTPHeaderField: "ETag") == beforeResponse.value(forHTTPHeaderField: "ETag"))
        let decision = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.11.0", "url": "https://m.badoo.com/u/7"],
            token: nil)
        #expect(decision.string("decision") == "open_in_app")
        #expect(try await server.result("Associations.Get", ["host": "m.badoo.com"]).int("revision") == revision)
        let write = try await deadlineWrite(
            server, "Routes.Create",
            ["app": "badoo", "route": ["id": "help", "pattern": ["path": "/help/*"], "action": "exclude"]])
        #expect(errorCode(write) == 14)
        #expect(
            try await eventually(within: .seconds(5)) {
                try await server.get("/readyz").1.statusCode == 503
            })
        // Not ready only once the snapshot is older than the bound: its last confirmation was at most one poll
        // (1 s) before the database stopped, and it is at least 2 s old now.
        let refreshed = try #require(server.service.snapshotRefreshedAt)
        #expect(Date().timeIntervalSince(refreshed) >= 2.0)
        #expect(stoppedAt.duration(to: .now) >= .seconds(1))
        let metrics = String(decoding: try await server.get("/metrics").0, as: UTF8.self)
        #expect(metrics.contains("routereg_database_up 0"), "\(metrics)")

        try cluster.start()

        #expect(
            try await eventually(within: .seconds(10)) {
                let retry = try await deadlineWrite(
                    server, "Routes.Create",
                    ["app": "badoo", "route": ["id": "help", "pattern": ["path": "/help/*"], "action": "exclude"]])
                return errorCode(retry) == nil
            })
        #expect(
            try await eventually(within: .seconds(3)) {
                try await server.get("/readyz").1.statusCode == 200
            })
    }

    @Test func restartWithoutDatabaseServesThePersistedSnapshot() async throws {
        let cluster = try TestPostgres.privateCluster()
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase(suite: "restart")
        let snapshotFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("routereg-snapshot-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: snapshotFile) }

        let first = try TestRegistryServer(suite: "restart", database: database, snapshotFile: snapshotFile)
        try await seedBadoo(first)
        let (served, response) = try await first.get("/.well-known/apple-app-site-association", host: "m.badoo.com")
        first.stop()
        try cluster.stop()

        try await Task.sleep(for: .seconds(2))  // The persisted snapshot is now older than the bound.
        let second = try TestRegistryServer(
            suite: "restart", database: database, snapshotFile: snapshotFile, maxSnapshotAge: .seconds(2))
        defer { second.stop() }
        let (again, againResponse) = try await second.get(
            "/.well-known/apple-app-site-association", host: "m.badoo.com")
        #expect(againResponse.statusCode == 200)
        #expect(again == served)
        #expect(againResponse.value(forHTTPHeaderField: "ETag") == response.value(forHTTPHeaderField: "ETag"))
        #expect(try await second.get("/readyz").1.statusCode == 503)

        try cluster.start()
        #expect(
            try await eventually(within: .seconds(10)) {
                try await second.get("/readyz").1.statusCode == 200
            })
        let write = try await deadlineWrite(
            second, "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        #expect(errorCode(write) == nil)
    }
}
