import Dispatch
import Foundation
import HTTPServing
import RegistryAPI
import RegistryApplication
import RegistryService
import RouteCore
import RouteRegistryClient
import RouteStore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `routereg backup check`: a restored database compared with a running registry, as their clients see them.
enum BackupCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["backup", "check"], summary: "compare a restored database with a running registry",
            details: """
                Serves the restored database read-only from inside this command (nothing is written to it; its
                schema must be this build's), then reads both registries the way their clients do and compares:
                apps, domains, routes, releases, short links and tokens; every domain's apple-app-site-association
                and assetlinks.json (status, ETag and bytes) and its revision history; the canOpen table of every
                release (status, ETag and bytes); the whole audit log. Prints one line per difference and a
                summary; exits 0 when both are the same, 1 when anything differs. The running registry is read
                with --server and the token of ROUTEREG_TOKEN or the config file (an admin's: tokens are compared
                too). --json prints {"same", "differences", "counts"} instead.
                A backup taken before the registry's latest writes differs by those writes: the audit lines say
                which. DEPLOYMENT.md, "Backup and restore".
                """,
            flags: [.value("database-url", "URL", "the restored database (served read-only, never written)")],
            examples: [
                "backup check --database-url postgresql://routereg@restore-test/routereg --server http://127.0.0.1:8080"
            ], action: .run(check))
    ]

    static func check(_ run: Invocation) throws {
        guard let url = run.arguments.value("database-url"), !url.isEmpty else {
            throw UsageError("--database-url is required: the restored database to compare")
        }
        let settings = try ClientSettings.resolve(
            serverFlag: run.arguments.value("server"), environment: run.environment.variables)
        let restored = try RestoredRegistry(databaseURL: url)
        defer { restored.stop() }
        let running = try RegistryReader(server: settings.server, token: settings.token).inventory()
        let copy = try RegistryReader(server: restored.baseURL, token: restored.token).inventory()
        let differences = BackupComparison.differences(running: running, restored: copy)
        let counts = copy.counts
        if run.json {
            let report: [String: Any] = [
                "same": differences.isEmpty, "differences": differences,
                "counts": [
                    "documents": counts.documents, "tables": counts.tables, "revisions": counts.revisions,
                    "audit": counts.audit,
                ],
            ]
            run.print(String(decoding: RegistryReader.json(report), as: UTF8.self))
            if differences.isEmpty { return }
            throw CommandFailure("\(differences.count) differences")
        }
        for line in differences { run.print(line) }
        let summary =
            "\(counts.documents) documents, \(counts.tables) canOpen tables, \(counts.revisions) revisions, "
            + "\(counts.audit) audit entries in the restored database"
        if differences.isEmpty {
            run.print("same as \(settings.server.absoluteString): \(summary)")
        } else {
            throw CommandFailure(
                "\(differences.count) difference\(differences.count == 1 ? "" : "s") from "
                    + "\(settings.server.absoluteString) (\(summary))")
        }
    }
}

/// The restored database served read-only on a loopback port, with an admin secret of its own, so both sides
/// are read through the same HTTP interface.
final class RestoredRegistry {
    let token = RegistryService.newSecret()
    private let application: RegistryApplication

    /// Starts the application on the restored database: read-only, and without the writers of clicks and
    /// token last uses, whose final flush on stop would otherwise change the database this only checks.
    init(databaseURL: String) throws {
        application = RegistryApplication(
            configuration: Configuration(
                database: .url(databaseURL), poolSize: 2,
                service: RegistryService.Options(bootstrapAdminSHA256: SHA256.hex(Array(token.utf8)), readOnly: true),
                http: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), cacheMaxAge: 0,
                requestLog: .silent, writesCounters: false, requiresDatabase: true))
        do {
            try application.start()
        } catch is DatabaseUnavailable {
            throw CommandFailure("cannot read the restored database (\(Self.redacted(databaseURL)))")
        }
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(application.port)")! }

    func stop() {
        application.stop()
    }

    /// The URL without a password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// What a registry serves, keyed by what it is (`domains/m.badoo.com/aasa`), each value as bytes to compare.
struct RegistryInventory {
    /// Keys in the order they were read.
    var keys: [String] = []
    var values: [String: Data] = [:]
    var counts = (documents: 0, tables: 0, revisions: 0, audit: 0)

    mutating func record(_ key: String, _ value: Data) {
        if values[key] == nil { keys.append(key) }
        values[key] = value
    }
}

/// Reads a registry through its public API, every page.
struct RegistryReader {
    let server: URL
    let token: String?
    private let client: RPCClient
    private let session: URLSession

    init(server: URL, token: String?) {
        self.server = server
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        client = RPCClient(server: server, token: token, session: session, timeout: 30)
    }

    func inventory() throws -> RegistryInventory {
        var inventory = RegistryInventory()
        let apps = try pages("Apps.List", [:], "apps")
        inventory.record("apps", Self.json(apps))
        for app in apps {
            guard let id = app["id"] as? String else { continue }
            inventory.record(
                "\(ResourceName.routes(app: id))", Self.json(try pages("Routes.List", ["app": id], "routes")))
            inventory.record("\(ResourceName.app(id))/links", Self.json(try pages("Links.List", ["app": id], "links")))
            let releases = try pages("Releases.List", ["app": id], "releases")
            inventory.record("\(ResourceName.app(id))/releases", Self.json(releases))
            for release in releases {
                guard let platform = release["platform"] as? String, let version = release["version"] as? String
                else { continue }
                let path = "/canopen/v1/\(id)/\(platform)/\(version).json"
                inventory.record(String(path.dropFirst()), try get(path, host: nil))
                inventory.counts.tables += 1
            }
        }
        let domains = try pages("Domains.List", [:], "domains")
        inventory.record("domains", Self.json(domains))
        for domain in domains {
            guard let host = domain["host"] as? String else { continue }
            for (kind, path) in [
                ("aasa", "/.well-known/apple-app-site-association"), ("assetlinks", "/.well-known/assetlinks.json"),
            ] {
                inventory.record("\(ResourceName.domain(host))/\(kind)", try get(path, host: host))
                inventory.counts.documents += 1
                let revisions = try pages("Associations.ListRevisions", ["host": host, "kind": kind], "revisions")
                inventory.record("\(ResourceName.domain(host))/\(kind)/revisions", Self.json(revisions))
                inventory.counts.revisions += revisions.count
            }
        }
        // A token's last use moves whenever it is used (this check's own token included): not state a backup
        // restores, so it is left out of the comparison.
        var tokens = try pages("Tokens.List", [:], "tokens")
        for index in tokens.indices { tokens[index]["lastUsedAt"] = nil }
        inventory.record("tokens", Self.json(tokens))
        let audit = try pages("Audit.List", [:], "entries")
        inventory.record("audit", Self.json(audit))
        inventory.counts.audit = audit.count
        return inventory
    }

    /// Every item of a paged list method.
    private func pages(_ method: String, _ params: [String: Any], _ items: String) throws -> [[String: Any]] {
        var all: [[String: Any]] = []
        var pageToken: String?
        repeat {
            var page = params
            page["pageSize"] = 1000
            if let pageToken { page["pageToken"] = pageToken }
            let raw = try client.callRawSync(
                method: method, paramsJSON: try JSONSerialization.data(withJSONObject: page))
            guard let result = try JSONSerialization.jsonObject(with: raw) as? [String: Any] else {
                throw CommandFailure("\(server.absoluteString): \(method) answered something other than an object")
            }
            all += result[items] as? [[String: Any]] ?? []
            pageToken = (result["nextPageToken"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        return all
    }

    /// `status ETag` on the first line, then the body: what a client of a GET sees.
    private func get(_ path: String, host: String?) throws -> Data {
        var request = URLRequest(url: URL(string: server.absoluteString + path)!, timeoutInterval: 30)
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        let outcome = Mutex<(Data, Int, String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { body, response, _ in
            let http = response as? HTTPURLResponse
            outcome.withLock {
                $0 = (body ?? Data(), http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "ETag") ?? "-")
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + 35) == .timedOut {
            task.cancel()
            throw ClientError.timedOut
        }
        guard let (body, status, etag) = outcome.withLock({ $0 }), status != 0 else {
            throw CommandFailure("\(server.absoluteString)\(path): no answer", status: CLI.exitUnreachable)
        }
        return Data("\(status) \(etag)\n".utf8) + body
    }

    static func json(_ value: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
    }
}

/// The differences between two inventories, one line each.
enum BackupComparison {
    static func differences(running: RegistryInventory, restored: RegistryInventory) -> [String] {
        var lines: [String] = []
        for key in running.keys where restored.values[key] == nil {
            lines.append("\(key): only in the running registry")
        }
        for key in restored.keys where running.values[key] == nil {
            lines.append("\(key): only in the restored database")
        }
        for key in running.keys {
            guard let mine = running.values[key], let theirs = restored.values[key], mine != theirs else { continue }
            lines.append("\(key): differs (\(describe(mine, theirs)))")
        }
        return lines
    }

    /// For a list, how many items each has and the first that differs; for a document, the status line each
    /// has and where the bytes part.
    static func describe(_ running: Data, _ restored: Data) -> String {
        if let left = try? JSONSerialization.jsonObject(with: running) as? [Any],
            let right = try? JSONSerialization.jsonObject(with: restored) as? [Any]
        {
            let first = zip(left, right).enumerated().first {
                RegistryReader.json([$0.element.0]) != RegistryReader.json([$0.element.1])
            }?.offset
            return "running \(left.count) items, restored \(right.count)"
                + (first.map { "; item \($0 + 1) differs" } ?? "")
        }
        // A GET's value: "status ETag", a newline, the body.
        func split(_ data: Data) -> (head: String, body: [UInt8]) {
            let bytes = Array(data)
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes.dropFirst(end + 1)))
        }
        let (left, right) = (split(running), split(restored))
        let offset = zip(left.body, right.body).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return "running \(left.head), \(left.body.count) bytes; restored \(right.head), \(right.body.count) bytes"
            + (offset.map { "; first difference at byte \($0)" } ?? "")
    }
}
