import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// A primary dies and its streaming standby is promoted (`pg_ctl promote`), with two servers on the
/// multi-host URL (`target_session_attrs=read-write`): reads never stop, writes resume without a restart, both
/// servers converge on what the new primary holds, and a write the failover lost leaves no ghost anywhere.
@Suite(.serialized) struct FailoverTests {
    @Test func bothServersConvergeAfterAHardFailover() async throws {
        let fleet = try HAFleet()
        defer { fleet.tearDown() }
        let (a, b) = (fleet.servers[0], fleet.servers[1])
        try await seedBadoo(a)
        try fleet.postgres.waitForStandbyToCatchUp()
        // b learns of a's writes by polling: both serve the seeded file before the primary dies.
        let (before, _) = try await a.get("/.well-known/apple-app-site-association", host: "m.badoo.com")
        let converged = try await eventually(within: .seconds(15)) {
            try await b.get("/.well-known/apple-app-site-association", host: "m.badoo.com").0 == before
        }
        #expect(converged, "server b never served what a wrote before the failover")

        try fleet.postgres.killPrimary()
        // Reads go on from the snapshot while there is no primary at all.
        for server in [a, b] {
            let (during, response) = try await server.get(
                "/.well-known/apple-app-site-association", host: "m.badoo.com")
            #expect(response.statusCode == 200)
            #expect(during == before)
        }
        try fleet.postgres.promoteStandby()

        let write = try await firstSuccess(within: .seconds(30)) {
            try await deadlineWrite(a, "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        }
        // The writer's own snapshot has the new document as soon as the write returns (read in process, so the
        // figure below is the other server's delay alone).
        let published = ContinuousClock.now
        let etag = try #require(a.service.snapshot.document(host: "m.badoo.com", kind: .aasa)?.etag)
        let otherCaughtUp = try await eventually(within: .seconds(15)) {
            try await b.get("/.well-known/apple-app-site-association", host: "m.badoo.com").1
                .value(forHTTPHeaderField: "ETag") == etag
        }
        let otherSeconds = published.duration(to: .now).secondsValue
        print(
            String(
                format:
                    "failover figures: first successful write %.2f s after promote; other server serves it %.2f s later",
                write.seconds, otherSeconds))
        #expect(otherCaughtUp, "server b never served the write made on a after the failover: \(fleet.lines.all)")

        // A write on the other server, then both serve exactly what the new primary holds.
        let second = try await firstSuccess(within: .seconds(15)) {
            try await deadlineWrite(
                b, "Releases.Publish", ["app": "badoo", "platform": "android", "version": "5.12.0"])
        }
        _ = second
        try await expectServing(exactlyWhatIsIn: fleet.postgres.standbyURL(HAFleet.database), [a, b])
    }

    @Test func aWriteLostInTheFailoverLeavesNoGhostEvenWhenItsAuditIdIsReused() async throws {
        let fleet = try HAFleet()
        defer { fleet.tearDown() }
        let (a, b) = (fleet.servers[0], fleet.servers[1])
        try await seedBadoo(a)
        try fleet.postgres.waitForStandbyToCatchUp()
        try fleet.postgres.cutReplication()

        // Acknowledged on the primary, never replicated: the failover loses it.
        _ = try await a.result(
            "Routes.Create",
            iosRoute("ghost"))
        #expect(
            try await eventually(within: .seconds(5)) {
                String(
                    decoding: try await b.get("/.well-known/apple-app-site-association", host: "m.badoo.com").0,
                    as: UTF8.self
                )
                .contains("/ghost/")
            })
        let lostID = try HAFleet.store(fleet.postgres.primaryURL(HAFleet.database)).read { tx in
            try tx.query("SELECT max(id) AS id FROM audit")[0].int("id")
        }

        try fleet.postgres.killPrimary()
        try fleet.postgres.promoteStandby()
        let newPrimary = fleet.postgres.standbyURL(HAFleet.database)
        // The lost write's audit id is the next the new primary hands out (sequences are WAL-logged ahead in
        // batches, so in a real failover this happens when the lost writes fell within one batch).
        try HAFleet.store(newPrimary).database.withConnection { connection in
            try connection.query("SELECT setval('audit_id_seq', \(lostID - 1)) AS id")
        }

        _ = try await firstSuccess(within: .seconds(30)) {
            try await deadlineWrite(a, "Routes.Create", iosRoute("real"))
        }
        let realID = try HAFleet.store(newPrimary).read { tx in
            try tx.query("SELECT id FROM audit WHERE resource = 'apps/badoo/routes/real'")[0].int("id")
        }
        #expect(realID == lostID, "the scenario needs the lost id reused (lost \(lostID), real \(realID))")
        // Writes on both servers afterwards: built incrementally from a ghost snapshot, they would store the
        // ghost route in new revisions.
        _ = try await firstSuccess(within: .seconds(15)) {
            try await deadlineWrite(b, "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        }
        _ = try await firstSuccess(within: .seconds(15)) {
            try await deadlineWrite(a, "Routes.Create", iosRoute("after"))
        }

        try await expectServing(exactlyWhatIsIn: newPrimary, [a, b])
        let ghostRevisions = try HAFleet.store(newPrimary).read { tx in
            try tx.query(
                "SELECT count(*) AS n FROM revisions WHERE position('/ghost/' in convert_from(bytes, 'UTF8')) > 0")[0]
                .int("n")
        }
        #expect(ghostRevisions == 0, "revisions stored after the failover contain the lost route")
        #expect(a.service.snapshotIdentityLosses + b.service.snapshotIdentityLosses >= 1)
        #expect(fleet.lines.all.contains { $0.contains("writes were lost") }, "\(fleet.lines.all)")
    }

    /// Every server's snapshot holds the registry and the latest documents the database at `url` holds.
    private func expectServing(exactlyWhatIsIn url: String, _ servers: [TestRegistryServer]) async throws {
        let store = HAFleet.store(url)
        let registry = try store.loadRegistry()
        let heads = try store.read { tx in
            try tx.query(
                "SELECT DISTINCT ON (host, kind) host, kind, etag FROM revisions ORDER BY host, kind, number DESC"
            ).map { "\(try $0.string("host"))/\(try $0.string("kind"))=\(try $0.string("etag"))" }.sorted()
        }
        for (index, server) in servers.enumerated() {
            let converged = await eventually(within: .seconds(5)) {
                let snapshot = server.service.snapshot
                let served = snapshot.documents.values.map { "\($0.host)/\($0.kind.rawValue)=\($0.etag)" }.sorted()
                return snapshot.registry == registry && served == heads
            }
            #expect(converged, "server \(index) does not serve what the database holds")
            let aasa = String(
                decoding: try await server.get("/.well-known/apple-app-site-association", host: "m.badoo.com").0,
                as: UTF8.self)
            #expect(!aasa.contains("/ghost/"), "server \(index) serves the lost route")
        }
    }
}

/// The same loss without any failover or reconnect for the servers to notice: the lost write is removed from
/// the database behind their backs (append-only triggers disabled) and its audit id handed out again. Only the
/// write token can tell the served state from the database's; generation numbers alone match.
@Suite struct LostWriteIdentityTests {
    @Test func aServedStateMissingFromTheDatabaseIsReplacedWithoutAReconnect() async throws {
        let a = try TestRegistryServer(suite: "lost_identity")
        defer { a.shutdown() }
        let b = try TestRegistryServer(
            suite: "lost_identity", database: a.database, runtime: RegistryRuntime.Options(pollInterval: .seconds(60)))
        defer { b.stop() }
        try await seedBadoo(a)
        let store = HAFleet.store(a.database.url)
        let heads = try store.read { tx in
            try tx.query("SELECT host, kind, max(number) AS number FROM revisions GROUP BY host, kind").map {
                (try $0.string("host"), try $0.string("kind"), try $0.int("number"))
            }
        }
        _ = try await a.result(
            "Routes.Create",
            iosRoute("ghost"))
        #expect(
            try await eventually(within: .seconds(5)) {
                b.service.snapshot.registry.routes["badoo"]?.contains { $0.id == "ghost" } == true
            })

        // "Lose" the write: its audit entry, its route and the revisions it appended, then reuse its audit id.
        try store.database.withConnection { connection in
            try connection.execute(
                script: """
                    ALTER TABLE audit DISABLE TRIGGER audit_append_only;
                    ALTER TABLE revisions DISABLE TRIGGER revisions_immutable;
                    DELETE FROM audit WHERE id = (SELECT max(id) FROM audit);
                    DELETE FROM routes WHERE app = 'badoo' AND id = 'ghost';
                    """)
            for (host, kind, number) in heads {
                try connection.query(
                    "DELETE FROM revisions WHERE host = \(host) AND kind = \(kind) AND number > \(number)")
            }
            try connection.execute(
                script: """
                    ALTER TABLE audit ENABLE TRIGGER audit_append_only;
                    ALTER TABLE revisions ENABLE TRIGGER revisions_immutable;
                    SELECT setval('audit_id_seq', (SELECT max(id) FROM audit));
                    """)
        }
        _ = try await a.result(
            "Routes.Create",
            iosRoute("real"))
        _ = try await b.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])

        let registry = try store.loadRegistry()
        for (name, server) in [("a", a), ("b", b)] {
            let converged = await eventually(within: .seconds(5)) { server.service.snapshot.registry == registry }
            #expect(converged, "server \(name) serves a state the database does not hold")
        }
        let ghosts = try store.read { tx in
            try tx.query(
                "SELECT count(*) AS n FROM revisions WHERE position('/ghost/' in convert_from(bytes, 'UTF8')) > 0")[0]
                .int("n")
        }
        #expect(ghosts == 0, "a revision stored after the loss contains the lost route")
        #expect(b.service.snapshotIdentityLosses >= 1)
    }
}

/// The periodic full-load check (`verifySnapshot`, every minute in `routereg serve`): the one check in
/// release builds that the incrementally built snapshot equals the database.
@Suite struct SnapshotVerificationTests {
    @Test func aSnapshotThatDriftedFromTheDatabaseIsReportedAndReplaced() async throws {
        let lines = LogLines()
        let server = try TestRegistryServer(suite: "verify", log: { lines.append($0) })
        defer { server.shutdown() }
        try await seedBadoo(server)
        #expect(try server.service.verifySnapshot(), "a snapshot built by the service matches a full load")
        #expect(server.service.snapshotDivergences == 0)

        // The same state (generation and write token) with a different registry: what a bug in the
        // incremental path would serve.
        let current = server.service.snapshot
        var drifted = current.registry
        drifted.routes["badoo"] = Array((drifted.routes["badoo"] ?? []).dropLast())
        server.service.snapshots.install(
            Snapshot(
                registry: drifted, documents: current.documents, tokens: current.tokens,
                generation: current.generation, writeToken: current.writeToken),
            replacing: true)

        #expect(try server.service.verifySnapshot() == false)
        #expect(server.service.snapshotDivergences == 1)
        #expect(server.service.snapshot.registry == current.registry, "the full load is served again")
        #expect(lines.all.contains { $0.contains("DIVERGENCE") }, "\(lines.all)")
        let metrics = String(decoding: try await server.get("/metrics").0, as: UTF8.self)
        #expect(metrics.contains("routereg_snapshot_divergences_total 1"))
    }
}
