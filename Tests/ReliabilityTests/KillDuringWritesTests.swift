import Foundation
import RegistryTesting
import RouteCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `routereg serve` killed with SIGKILL at random moments while clients publish, retire and edit
/// routes; after every restart the registry must be whole: each write entirely there or entirely absent.
@Suite("SIGKILL during writes")
struct KillDuringWritesTests {
    static let kills = 15

    /// The writes a client saw acknowledged (method and resource), which must survive any kill.
    final class Acknowledged: Sendable {
        private let list = Mutex<[(method: String, resource: String)]>([])
        func add(_ method: String, _ resource: String) { list.withLock { $0.append((method, resource)) } }
        var all: [(method: String, resource: String)] { list.withLock { $0 } }
    }

    /// Publishes, edits and retires until the server dies: worker `lane` uses ids `lane-N` so two workers never
    /// collide, and never reuses an id after a restart.
    static func workload(_ client: RegistryClient, app: String, lane: String, start: Int, acknowledged: Acknowledged)
        async
    {
        var index = start
        while true {
            let route = "\(lane)-\(index)"
            let version = "\(lane == "a" ? 1 : 2).\(index)"
            // A release is named with its version in canonical form (1.1000 → 1.1000.0).
            let release = ResourceName.release(
                app: app, platform: .ios, version: Version(components: [lane == "a" ? 1 : 2, index])
            ).description
            let steps: [(String, [String: Any], String)] = [
                (
                    "Routes.Create", ["app": app, "route": Fixture.route(route, path: "/\(route)/*", since: version)],
                    "apps/\(app)/routes/\(route)"
                ),
                (
                    "Releases.Publish", ["app": app, "platform": "ios", "version": version], release
                ),
                (
                    "Routes.Update",
                    ["app": app, "route": Fixture.route(route, path: "/\(route)/x/*", since: version)],
                    "apps/\(app)/routes/\(route)"
                ),
                (
                    "Routes.SwitchOff",
                    ["app": app, "route": route, "platform": "ios", "versions": [version], "reason": "kill test"],
                    "apps/\(app)/routes/\(route)"
                ),
                (
                    "Releases.Retire", ["app": app, "platform": "ios", "version": version], release
                ),
            ]
            for (method, params, resource) in steps {
                guard let response = try? await client.call(method, params) else { return }
                if response.object["result"] != nil { acknowledged.add(method, resource) }
            }
            index += 1
        }
    }

    @Test("15 kills at random moments: whole writes only, revisions 1...N, served file = latest = regenerated")
    func killsDuringWrites() async throws {
        let cluster = try TestPostgres.privateCluster()
        defer { cluster.destroy() }
        let database = try cluster.makeDatabase(suite: "kill")
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("reliability-kill-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dataDirectory) }
        let app = "kill"
        var server = try await ServerProcess.start(databaseURL: database.url, dataDirectory: dataDirectory)
        try await Fixture.seed(RegistryClient(baseURL: server.baseURL), app: app)

        let acknowledged = Acknowledged()
        var generator = SplitMix(seed: 0x6b11)
        for round in 0..<Self.kills {
            let client = RegistryClient(baseURL: server.baseURL)
            let workers = ["a", "b"].map { lane in
                Task {
                    await Self.workload(client, app: app, lane: lane, start: round * 1000, acknowledged: acknowledged)
                }
            }
            // Each round kills a server that has acknowledged at least one of its writes (on a loaded machine a
            // fixed delay could kill it before any), then at a random moment among the writes that follow.
            let before = acknowledged.all.count
            let started = ContinuousClock.now
            while acknowledged.all.count == before, started.duration(to: .now) < .seconds(20) {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...360, using: &generator)))
            let status = await server.killHard()
            #expect(status == 128 + SIGKILL, "round \(round): the server exited \(status) instead of dying by SIGKILL")
            // No Task.cancel(): cancelling a task inside URLSession can deadlock FoundationNetworking on
            // Linux. The workers stop by themselves at their first failed call to the dead server.
            for worker in workers { await worker.value }

            server = try await ServerProcess.start(databaseURL: database.url, dataDirectory: dataDirectory)
            let restarted = RegistryClient(baseURL: server.baseURL)
            let invariants = RegistryInvariants(client: restarted, app: app, hosts: Fixture.hosts(app))
            // The new server's snapshot may lag the database for a moment: the killed server's last COMMIT can
            // land after the new one loaded, or the database may not answer at once and the persisted file
            // (up to a second old) is served until the retry. Releases.List reads the database, so it can be
            // ahead meanwhile. Only what is still wrong after the 2 s poll is a violation.
            var violations = try await invariants.violations()
            for _ in 0..<4 where !violations.isEmpty {
                try await Task.sleep(for: .seconds(1))
                violations = try await invariants.violations()
            }
            #expect(violations.isEmpty, "round \(round): \(violations)")

            let audit = try await invariants.auditEntries()
            let audited = Set(audit.map { "\($0["method"] as? String ?? "") \($0["resource"] as? String ?? "")" })
            let lost = acknowledged.all.filter { !audited.contains("\($0.method) \($0.resource)") }
            #expect(lost.isEmpty, "round \(round): acknowledged writes missing after the kill: \(lost)")
        }

        // A no-op write (publishing a live version again) creates no revision: the stored files are exactly
        // what the database regenerates.
        let client = RegistryClient(baseURL: server.baseURL)
        _ = try await client.result("Releases.Publish", ["app": app, "platform": "ios", "version": "9.9"])
        let again = try await client.result("Releases.Publish", ["app": app, "platform": "ios", "version": "9.9"])
        let changed = (again["revisions"] as? [[String: Any]] ?? []).filter { $0["changed"] as? Bool != false }
        #expect(changed.isEmpty, "a no-op publish created revisions: \(changed)")
        #expect(acknowledged.all.count > Self.kills, "too few writes were acknowledged to mean anything")
        await server.ensureStopped()
    }
}
