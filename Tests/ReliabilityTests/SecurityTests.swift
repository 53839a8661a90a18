import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryTesting
import RouteStore
import Synchronization
import Testing

/// Secrets stay secret: tokens only as hashes in the database, never in the request log; the audit log
/// cannot be rewritten even with direct SQL; error messages show nothing internal.
@Suite("Security")
struct SecurityTests {
    /// Lines the server logged, for inspection.
    final class CapturedLog: Sendable {
        private let lines = Mutex<[String]>([])
        var log: RequestLog { .custom { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("token secrets: only their SHA-256 is stored; none appears in the request log, valid, revoked or bogus")
    func tokensNeverStoredOrLogged() async throws {
        let registry = try TestRegistryServer(suite: "secrets")
        defer { registry.shutdown() }
        let captured = CapturedLog()
        let logged = RegistryServer(
            service: registry.service,
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2),
            log: captured.log)
        try logged.start()
        defer { logged.stop() }
        let base = URL(string: "http://127.0.0.1:\(logged.port)")!
        let admin = RegistryClient(baseURL: base, token: TestRegistryServer.adminToken)

        var secrets = [TestRegistryServer.adminToken]
        for role in ["admin", "releaser", "reader"] {
            let created = try await admin.result(
                "Tokens.Create", ["token": ["displayName": "ci \(role)", "role": role]])
            secrets.append(try #require(created["secret"] as? String))
        }
        let revokedID = try #require(
            try await admin.result("Tokens.List").values.compactMap { $0 as? [[String: Any]] }.first?.first {
                $0["displayName"] as? String == "ci reader"
            }?["id"] as? String)
        _ = try await admin.result("Tokens.Revoke", ["id": revokedID])

        // Every secret is used: good calls, denied calls, revoked, garbage, and a token pasted into params.
        let bogus = "rr_bogus_" + String(repeating: "f", count: 40)
        for secret in secrets + [bogus] {
            let client = RegistryClient(baseURL: base, token: secret)
            _ = try await client.call("Apps.List")
            _ = try await client.call("Tokens.List")
            _ = try await client.call("Apps.Create", Fixture.app("logged"))
            _ = try await client.call("Apps.Get", ["app": secret])
            _ = try await client.get("/healthz")
        }
        _ = try await RegistryClient(baseURL: base, token: "Basic " + secrets[1]).call("Apps.List")

        let lines = captured.all
        #expect(lines.count >= 25, "the request log captured only \(lines.count) lines")
        for secret in secrets + [bogus] {
            let leaking = lines.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "a token secret was logged: \(leaking.prefix(2))")
        }

        let connection = try Connection(url: registry.database.url)
        let rows = try connection.query("SELECT row_to_json(t)::text AS row FROM tokens t")
        let stored = try rows.map { try $0.string("row") }.joined(separator: "\n")
        #expect(rows.count == 3, "tokens table holds \(rows.count) rows")
        for secret in secrets {
            #expect(!stored.contains(secret), "a token secret is stored in the tokens table")
            #expect(!stored.lowercased().contains(Data(secret.utf8).base64EncodedString().lowercased()))
        }
        let audit = try connection.query("SELECT string_agg(row_to_json(a)::text, E'\\n') AS all FROM audit a")
        let auditText = try audit.first.map { try $0.optionalString("all") ?? "" } ?? ""
        for secret in secrets { #expect(!auditText.contains(secret), "a token secret is in the audit log") }
    }

    @Test("audit and revisions refuse UPDATE, DELETE and TRUNCATE even from the service's own connection")
    func appendOnlyInTheDatabase() async throws {
        let registry = try TestRegistryServer(suite: "appendonly")
        defer { registry.shutdown() }
        let client = RegistryClient(baseURL: registry.baseURL, token: TestRegistryServer.adminToken)
        try await Fixture.seed(client, app: "ledger")
        _ = try await client.result("Routes.Create", ["app": "ledger", "route": Fixture.route("r", path: "/r/*")])
        _ = try await client.result("Releases.Publish", ["app": "ledger", "platform": "ios", "version": "1.0"])
        let before = try await client.all("Audit.List", [:], key: "entries").count

        let connection = try Connection(url: registry.database.url)
        let statements: [SQLQuery] = [
            "UPDATE audit SET actor = 'mallory'", "DELETE FROM audit", "TRUNCATE audit",
            "UPDATE audit SET after = NULL",
            "UPDATE revisions SET cause = 'forged'", "DELETE FROM revisions", "TRUNCATE revisions",
        ]
        for statement in statements {
            #expect(throws: (any Error).self, "\(statement) was allowed") { try connection.query(statement) }
        }
        let after = try await client.all("Audit.List", [:], key: "entries")
        #expect(after.count == before)
        #expect(!after.contains { $0["actor"] as? String == "mallory" })
        let violations = try await RegistryInvariants(client: client, app: "ledger", hosts: Fixture.hosts("ledger"))
            .violations()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("errors for bad tokens, bad page tokens, bad params and unknown things show nothing internal")
    func errorMessagesAreClean() async throws {
        let registry = try TestRegistryServer(suite: "errors")
        defer { registry.shutdown() }
        let admin = RegistryClient(baseURL: registry.baseURL, token: TestRegistryServer.adminToken)
        try await Fixture.seed(admin, app: "clean")
        let anonymous = RegistryClient(baseURL: registry.baseURL, token: nil)
        let calls: [(RegistryClient, String, [String: Any])] = [
            (RegistryClient(baseURL: registry.baseURL, token: "wrong"), "Apps.List", [:]),
            (anonymous, "Apps.Create", Fixture.app("x")),
            (admin, "Apps.List", ["pageToken": "'; SELECT pg_sleep(10); --"]),
            (admin, "Audit.List", ["pageToken": "eyJpZCI6IjEgT1IgMT0xIn0="]),
            (admin, "Routes.List", ["app": "clean", "pageToken": String(repeating: "A", count: 5000)]),
            (admin, "Apps.List", ["pageSize": -1]),
            (admin, "Apps.List", ["pageSize": 1e300]),
            (admin, "Apps.Get", ["app": "absent"]),
            (admin, "Apps.Update", ["app": Fixture.app("clean")["app"]!, "etag": "stale"]),
            (admin, "Apps.Delete", ["app": "clean"]),
            (admin, "Releases.Retire", ["app": "clean", "platform": "ios", "version": "9.9"]),
            (admin, "Routes.Reorder", ["app": "clean", "order": ["a", "a"]]),
            (admin, "Associations.Get", ["host": "clean.example.com", "revision": 99_999]),
            (
                admin, "Associations.Diff",
                ["host": "clean.example.com", "fromRevision": -5, "toRevision": 2_147_483_648]
            ),
            (anonymous, "CanOpen.Check", ["app": "clean", "platform": "ios", "version": "1.0", "url": "::::"]),
            (anonymous, "No.Such", [:]),
            (admin, "Domains.Create", ["domain": ["host": "clean.example.com", "apps": ["clean"]]]),
        ]
        for (client, method, params) in calls {
            let (object, status) = try await client.call(method, params)
            #expect(status < 500, "\(method): HTTP \(status)")
            let error = try #require(object["error"] as? [String: Any], "\(method) \(params) unexpectedly succeeded")
            #expect(![13, -32603].contains(error["code"] as? Int ?? 0), "\(method): INTERNAL \(error)")
            let leaks = ErrorHygiene.leaks(inJSON: error, allowed: ["'; SELECT pg_sleep(10); --"])
            #expect(leaks.isEmpty, "\(method): the error shows \(leaks): \(error)")
        }
    }
}
