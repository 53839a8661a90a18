import Foundation
import ProcessSpawn
import RegistryTesting
import RouteStore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// DEPLOYMENT.md's backup and restore, done: a registry with history dumped with `pg_dump`, restored with
/// `pg_restore` into a fresh PostgreSQL, and served byte for byte; `routereg backup check` says so, and says
/// what a backup older than the registry's last write lacks; a server that was running against the old
/// database follows the restored one instead of keeping what the restore lost.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct BackupRestoreTests {
    struct ToolFailed: Error { var message: String }

    static let hosts = ["m.badoo.com", "go.badoo.com"]
    static let wellKnown = ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"]

    /// The first write, with a request id: retried on a restored database, it must answer its first outcome.
    nonisolated(unsafe) static let appCreate: [String: Any] = [
        "app": [
            "id": "badoo", "displayName": "Badoo",
            "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"], "appStoreId": "351331194"],
            "android": [
                "packageName": "com.badoo.mobile",
                "sha256CertFingerprints": [Array(repeating: "AB", count: 32).joined(separator: ":")],
            ],
        ], "requestId": "backup-app",
    ]

    /// Apps, domains (one a link domain), routes, releases published and retired, a switch-off, tokens created
    /// and one revoked, short links, and writes with request ids (idempotency records).
    static func makeHistory(_ server: TestRegistryServer) async throws -> (releaser: String, revoked: String) {
        _ = try await server.result("Apps.Create", appCreate)
        _ = try await server.result("Domains.Create", ["domain": ["host": "m.badoo.com", "apps": ["badoo"]]])
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "go.badoo.com", "apps": ["badoo"], "links": true]])
        for (id, path, since) in [("profile", "/u/*", "5.0"), ("lookalikes", "/l/a/*", "5.12.0")] {
            _ = try await server.result(
                "Routes.Create",
                [
                    "app": "badoo", "requestId": "route-\(id)",
                    "route": [
                        "id": id, "pattern": ["path": path],
                        "platforms": ["ios": ["since": since], "android": ["since": since]],
                        "domains": ["m.badoo.com"],
                    ],
                ])
        }
        for (platform, version) in [("ios", "5.11.0"), ("ios", "5.12.0"), ("android", "5.12.0"), ("ios", "5.13.0")] {
            _ = try await server.result(
                "Releases.Publish",
                ["app": "badoo", "platform": platform, "version": version, "requestId": "pub-\(platform)-\(version)"])
        }
        _ = try await server.result("Releases.Retire", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
        _ = try await server.result(
            "Routes.SwitchOff",
            [
                "app": "badoo", "route": "lookalikes", "platform": "ios", "versions": ["5.12.0"],
                "reason": "crash in 5.12.0",
            ])
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "profile42", "target": "https://m.badoo.com/u/42"]])
        var secrets: [String: String] = [:]
        for role in ["releaser", "reader"] {
            let created = try await server.result(
                "Tokens.Create", ["token": ["displayName": "\(role) bot", "role": role]])
            secrets[role] = created["secret"] as? String
        }
        let listed = try await server.result("Tokens.List", [:])
        let readerID = (listed["tokens"] as? [[String: Any]])?.first { $0["role"] as? String == "reader" }?["id"]
        _ = try await server.result("Tokens.Revoke", ["id": readerID as Any])
        return (try #require(secrets["releaser"]), try #require(secrets["reader"]))
    }

    /// Every GET a client makes: the well-known files of every host, the canOpen table of every release.
    static func documents(_ server: TestRegistryServer) async throws -> [String: (
        status: Int, etag: String?, body: Data
    )] {
        var documents: [String: (Int, String?, Data)] = [:]
        for host in hosts {
            for path in wellKnown {
                let (body, response) = try await server.get(path, host: host)
                documents[host + path] = (response.statusCode, response.value(forHTTPHeaderField: "ETag"), body)
            }
        }
        for (platform, version) in [
            ("ios", "5.11.0"), ("ios", "5.12.0"), ("ios", "5.13.0"), ("android", "5.12.0"), ("ios", "6.0.0"),
        ] {
            let path = "/canopen/v1/badoo/\(platform)/\(version).json"
            let (body, response) = try await server.get(path)
            documents[path] = (response.statusCode, response.value(forHTTPHeaderField: "ETag"), body)
        }
        return documents
    }

    /// The history as the API lists it: revisions of every document, the audit log, tokens, links, releases.
    static func history(_ server: TestRegistryServer) async throws -> [String: Data] {
        var lists: [(String, String, [String: Any])] = [
            ("audit", "Audit.List", [:]), ("tokens", "Tokens.List", [:]), ("links", "Links.List", ["app": "badoo"]),
            ("releases", "Releases.List", ["app": "badoo"]), ("routes", "Routes.List", ["app": "badoo"]),
        ]
        for host in hosts {
            for kind in ["aasa", "assetlinks"] {
                lists.append(("revisions", "Associations.ListRevisions", ["host": host, "kind": kind]))
            }
        }
        var history: [String: Data] = [:]
        for (index, (name, method, params)) in lists.enumerated() {
            var withPage = params
            withPage["pageSize"] = 1000
            let result = try await server.result(method, withPage)
            #expect(result["nextPageToken"] == nil || (result["nextPageToken"] as? String)?.isEmpty == true)
            let what = params.keys.sorted().map { "\($0)=\(params[$0]!)" }.joined(separator: ",")
            history["\(index) \(name) \(what)"] = try JSONSerialization.data(
                withJSONObject: result, options: [.sortedKeys])
        }
        return history
    }

    static func run(_ tool: String, _ arguments: [String]) async throws {
        let result = try await Spawn(
            try PostgresBinaries.locate().path(tool), arguments,
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        ).run(timeout: .seconds(120))
        #expect(result.succeeded, "\(tool) \(arguments): \(result.output)")
        if !result.succeeded { throw ToolFailed(message: "\(tool) failed: \(result.output)") }
    }

    static func backupCheck(_ restoredURL: String, against server: TestRegistryServer, json: Bool = false) async throws
        -> RunResult
    {
        try await BinaryRunner.run(
            ["backup", "check", "--database-url", restoredURL, "--server", server.baseURL.absoluteString]
                + (json ? ["--json"] : []),
            environment: ["ROUTEREG_TOKEN": TestRegistryServer.adminToken], timeout: .seconds(120))
    }

    @Test func aDumpRestoredIntoAFreshPostgreSQLServesTheSameBytesAndHistory() async throws {
        let source = try TestRegistryServer(suite: "backup_source")
        defer { source.shutdown() }
        let (releaser, revoked) = try await Self.makeHistory(source)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-backup-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("registry.dump").path
        try await Self.run("pg_dump", ["--format=custom", "--file", dump, source.database.url])

        // A fresh PostgreSQL, as after losing the machine: a new cluster, an empty database, the dump restored.
        let fresh = try TestPostgres.privateCluster()
        defer { fresh.destroy() }
        try PostgresServerAdmin(url: fresh.url).createDatabase("routereg")
        let restoredURL = fresh.url(database: "routereg")
        try await Self.run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", restoredURL, dump])
        let restored = try TestRegistryServer(
            suite: "backup_restored",
            database: TestDatabase(url: restoredURL, name: "routereg", serverURL: fresh.url, goesWithCluster: true))
        defer { restored.stop() }

        let before = try await Self.documents(source)
        let after = try await Self.documents(restored)
        #expect(before.keys.sorted() == after.keys.sorted())
        for (key, original) in before {
            let copy = try #require(after[key])
            #expect(original.status == 200 && original.etag != nil, "\(key) is not served by the source")
            #expect(copy.status == original.status && copy.etag == original.etag, "\(key)")
            #expect(copy.body == original.body, "\(key): the restored registry serves other bytes")
        }
        let (originalHistory, restoredHistory) = (try await Self.history(source), try await Self.history(restored))
        #expect(originalHistory.keys.sorted() == restoredHistory.keys.sorted())
        for (key, original) in originalHistory {
            #expect(
                restoredHistory[key] == original,
                "\(key): \(String(decoding: original, as: UTF8.self)) restored as \(String(decoding: restoredHistory[key] ?? Data(), as: UTF8.self))"
            )
        }

        // Tokens: the releaser's works on the restored registry, the revoked one still does not.
        let whoAmI = try await restored.call("Tokens.WhoAmI", [:], token: releaser)
        #expect((whoAmI["result"] as? [String: Any])?["role"] as? String == "releaser", "\(whoAmI)")
        #expect(try await restored.call("Tokens.WhoAmI", [:], token: revoked)["error"] != nil)
        // Idempotency records: the retried first write answers its first outcome (without its record it would be
        // ALREADY_EXISTS), writing nothing.
        let auditBefore = try await restored.result("Audit.List", ["pageSize": 1000])
        let retried = try await restored.call("Apps.Create", Self.appCreate)
        #expect((retried["result"] as? [String: Any])?["id"] as? String == "badoo", "\(retried)")
        let auditAfter = try await restored.result("Audit.List", ["pageSize": 1000])
        #expect(
            (auditAfter["entries"] as? [Any])?.count == (auditBefore["entries"] as? [Any])?.count,
            "a retried write was written again on the restored database")

        // `routereg backup check`: the same; then the source moves on and the check names what the backup lacks.
        let same = try await Self.backupCheck(restoredURL, against: source)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("same as \(source.baseURL.absoluteString)"), "\(same.stdout)")
        #expect(same.stdout.contains("4 documents"), "\(same.stdout)")
        let report = try await Self.backupCheck(restoredURL, against: source, json: true)
        let parsed = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        #expect(parsed?["same"] as? Bool == true && (parsed?["counts"] as? [String: Int])?["tables"] == 4, "\(report)")
        _ = try await source.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": [
                    "id": "after-backup", "pattern": ["path": "/later/*"], "platforms": ["ios": ["since": "5.0"]],
                    "domains": ["m.badoo.com"],
                ],
            ])
        let later = try await Self.backupCheck(restoredURL, against: source)
        #expect(later.status == 1, "\(later.stdout)\(later.stderr)")
        for expected in [
            "apps/badoo/routes: differs", "domains/m.badoo.com/aasa: differs",
            "domains/m.badoo.com/aasa/revisions: differs",
            "audit: differs (running",
        ] {
            #expect(later.stdout.contains(expected), "\(expected) missing from:\n\(later.stdout)")
        }
        #expect(!later.stdout.contains("assetlinks: differs"), "\(later.stdout)")
    }

    /// The old database is replaced under a running server by a restore of an earlier dump (same URL), and the
    /// restored database then hands out the lost write's audit id again: the server serves what the restored
    /// database holds, never the write the restore lost.
    @Test func aServerOnTheOldDatabaseFollowsTheRestoredOne() async throws {
        let database = try TestPostgres.makeDatabase(suite: "backup_identity")
        let server = try TestRegistryServer(
            suite: "backup_identity", database: database,
            runtime: .init(pollInterval: .milliseconds(250)))
        defer { server.shutdown() }
        _ = try await Self.makeHistory(server)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-backup-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dump = directory.appendingPathComponent("registry.dump").path
        try await Self.run("pg_dump", ["--format=custom", "--file", dump, database.url])

        // A write after the backup, acknowledged and served.
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": [
                    "id": "lost", "pattern": ["path": "/lost/*"], "platforms": ["ios": ["since": "5.0"]],
                    "domains": ["m.badoo.com"],
                ],
            ])
        let (served, _) = try await server.get(Self.wellKnown[0], host: "m.badoo.com")
        #expect(String(decoding: served, as: UTF8.self).contains("/lost/*"))

        // The database is lost and restored from the dump under the same name, then written to by another
        // server: its next audit entry takes the lost write's id.
        let admin = PostgresServerAdmin(url: database.serverURL)
        try admin.dropDatabase(database.name, force: true)
        try admin.createDatabase(database.name)
        try await Self.run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", database.url, dump])
        let other = try TestRegistryServer(suite: "backup_identity_other", database: database)
        defer { other.stop() }
        _ = try await other.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": [
                    "id": "after-restore", "pattern": ["path": "/restored/*"], "platforms": ["ios": ["since": "5.0"]],
                    "domains": ["m.badoo.com"],
                ],
            ])
        let (expected, _) = try await other.get(Self.wellKnown[0], host: "m.badoo.com")

        let deadline = ContinuousClock.now + .seconds(20)
        var body = Data()
        while ContinuousClock.now < deadline {
            body = try await server.get(Self.wellKnown[0], host: "m.badoo.com").0
            if body == expected { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(body == expected, "the old server still serves \(String(decoding: body, as: UTF8.self))")
        #expect(!String(decoding: body, as: UTF8.self).contains("/lost/*"))
        // Its own next write builds on the restored state: no ghost of the lost route in what it stores.
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.14.0"])
        let routes = try await other.result("Routes.List", ["app": "badoo", "pageSize": 1000])
        let ids = (routes["routes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(ids.contains("after-restore") && !ids.contains("lost"), "\(ids)")
        let (stored, _) = try await other.get(Self.wellKnown[0], host: "m.badoo.com")
        #expect(!String(decoding: stored, as: UTF8.self).contains("/lost/*"))
    }
}
