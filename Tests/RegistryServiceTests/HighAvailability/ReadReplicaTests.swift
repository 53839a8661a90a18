import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// A server pointed at a hot standby only: it checks the schema instead of migrating, follows the primary by
/// polling (NOTIFY does not reach standbys), serves reads, and refuses writes naming the replica.
@Suite(.serialized) struct ReadReplicaTests {
    @Test func aReplicaServesThePrimarysWritesAndRefusesItsOwn() async throws {
        let fleet = try HAFleet(servers: 1)
        defer { fleet.tearDown() }
        let primary = fleet.servers[0]
        try await seedBadoo(primary)
        try fleet.postgres.waitForStandbyToCatchUp()
        let standby = fleet.postgres.standbyURL(HAFleet.database)
        let lines = LogLines()
        let replica = try TestRegistryServer(
            suite: "replica", database: TestDatabase(url: standby, name: HAFleet.database, serverURL: standby),
            log: { lines.append($0) })
        defer { replica.stop() }
        #expect(try await replica.get("/readyz").1.statusCode == 200)

        _ = try await primary.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        // The writer's own snapshot has the new document as soon as the write returns (read in process, so the
        // figure below is the other server's delay alone).
        let published = ContinuousClock.now
        let etag = try #require(primary.service.snapshot.document(host: "m.badoo.com", kind: .aasa)?.etag)
        let served = try await eventually(within: .seconds(5)) {
            try await replica.get("/.well-known/apple-app-site-association", host: "m.badoo.com").1
                .value(forHTTPHeaderField: "ETag") == etag
        }
        print(
            String(
                format: "read replica: serves a write made on the primary %.2f s later",
                published.duration(to: .now).secondsValue))
        #expect(served, "the replica did not serve the primary's write within 5 s: \(lines.all)")
        let decision = try await replica.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.12.0", "url": "https://m.badoo.com/l/a/1"], token: nil)
        #expect(decision.string("decision") == "open_in_app")

        let refused = try await replica.call(
            "Routes.Create",
            ["app": "badoo", "route": ["id": "no", "pattern": ["path": "/no/*"], "action": "exclude"]])
        let error = try #require(refused["error"] as? [String: Any])
        #expect(error.int("code") == 9, "FAILED_PRECONDITION: \(error)")
        let message = error.string("message") ?? ""
        #expect(
            message.contains("hot standby") && message.contains("127.0.0.1:\(fleet.postgres.standbyPort)"), "\(message)"
        )
        let metrics = String(decoding: try await replica.get("/metrics").0, as: UTF8.self)
        #expect(metrics.contains("routereg_read_only 1"))
        #expect(metrics.contains("routereg_listener_connected -1"))
        #expect(metrics.contains("routereg_database_up 1"))
        #expect(lines.all.contains { $0.contains("read-only replica mode") })
    }

    @Test func aWriteReachingAStandbyAnywhereIsAReadableFailedPrecondition() async throws {
        let postgres = try ReplicatedPostgres(database: HAFleet.database)
        defer { postgres.destroy() }
        let primaryStore = HAFleet.store(postgres.primaryURL(HAFleet.database))
        try MigrationRunner.bundled().run(on: primaryStore.database)
        try postgres.waitForStandbyToCatchUp()
        // Straight to the store, past the service's read-only check: SQLSTATE 25006 from the server itself.
        let store = HAFleet.store(postgres.standbyURL(HAFleet.database))
        let error = try #require(throws: StoreError.self) {
            try store.write(actor: "test", method: "Apps.Create", resource: "apps/x") { tx in
                try tx.query("INSERT INTO apps (id) VALUES ('x')")
                return WriteResult(())
            }
        }
        #expect(error.sqlState == .readOnlySQLTransaction)
        let refusal = RegistryError(storeFailure: error)
        #expect(refusal.code == .failedPrecondition)
        #expect(refusal.message.contains("read-only replica"))
    }
}
