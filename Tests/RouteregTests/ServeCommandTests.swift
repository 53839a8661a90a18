import Foundation
import ProcessSpawn
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `routereg serve` as `make run` uses it: the embedded PostgreSQL comes up with it, Ctrl-C stops both and
/// leaves no process behind, and the next start reuses the data.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ServeCommandTests {
    /// A running `routereg serve`, its output captured in a file. Killed with its process group if the test
    /// process dies, and its data directory (where the embedded PostgreSQL runs, in a session of its own)
    /// handed to the reaper too, so a crashed run leaves no server or database behind.
    final class Server {
        let process: SpawnedProcess
        let output: URL
        let dataDirectory: URL

        init(dataDirectory: URL, log: [String] = ["--quiet"]) throws {
            guard let binary = BinaryRunner.executable else { throw CocoaError(.fileNoSuchFile) }
            self.dataDirectory = dataDirectory
            output = dataDirectory.deletingLastPathComponent()
                .appendingPathComponent("serve-\(UUID().uuidString).out")
            ProcessReaper.watch(directory: dataDirectory.path, remove: false)
            var environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": BinaryRunner.emptyHome]
            environment["LANG"] = "C.UTF-8"
            process = try Spawn(
                binary.path,
                ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDirectory.path, "--no-delivery-watch"] + log,
                environment: environment, standardOutput: .file(output.path), standardError: .standardOutput
            ).start()
        }

        deinit { ProcessReaper.forget(directory: dataDirectory.path) }

        var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// The base URL the server printed, waiting up to `timeout`.
        func baseURL(timeout: Duration = .seconds(120)) async throws -> URL {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let range = log.range(of: #"listening on http://[0-9.:]+"#, options: .regularExpression) {
                    return URL(string: String(log[range].dropFirst("listening on ".count)))!
                }
                if !process.isRunning { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no address printed: \(log)"])
        }

        /// Sends `signal` to the server alone (as Ctrl-C reaches it) and waits up to a minute for its exit
        /// status; -1 if it still runs.
        func stop(_ signal: Int32 = SIGINT) -> Int32 {
            kill(process.pid, signal)
            return process.wait(timeout: .seconds(60)) ?? -1
        }
    }

    static func status(_ url: URL) async -> Int {
        guard let (_, response) = try? await URLSession.shared.data(from: url) else { return 0 }
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    static func rpc(_ base: URL, token: String, _ body: String) async throws -> [String: Any] {
        var request = URLRequest(url: base.appendingPathComponent("rpc"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Whether a postmaster still runs for the cluster under `dataDirectory`.
    static func postmasterAlive(_ dataDirectory: URL) -> Bool {
        let pidFile = dataDirectory.appendingPathComponent("pgdata/postmaster.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
            let pid = Int32(text.split(separator: "\n").first ?? "")
        else { return false }
        return kill(pid, 0) == 0
    }

    @Test func embeddedDatabaseStartsStopsWithTheServerAndKeepsItsData() async throws {
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent("routereg-serve-\(UUID().uuidString)")
        // Reachable by the `postgres` user the embedded cluster runs as when the tests run as root.
        try FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o711])
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")

        let accessLog = root.appendingPathComponent("access.log")
        let first = try Server(dataDirectory: data, log: ["--access-log", accessLog.path])
        let base = try await first.baseURL()
        #expect(await Self.status(base.appendingPathComponent("healthz")) == 200)
        var ready = false
        for _ in 0..<100 where !ready {
            ready = await Self.status(base.appendingPathComponent("readyz")) == 200
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready, "readyz never answered 200: \(first.log)")
        let token = try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: data.appendingPathComponent("admin-token").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let created = try await Self.rpc(
            base, token: token, #"{"jsonrpc":"2.0","id":1,"method":"Apps.Create","params":{"app":{"id":"kept"}}}"#)
        #expect(created["result"] != nil, "\(created)")
        // The served canOpen table GET, through the same provider chain as the console's files.
        #expect(await Self.status(base.appendingPathComponent("canopen/v1/kept/ios/1.0.json")) == 200)
        #expect(await Self.status(base.appendingPathComponent("canopen/v1/kept/ios/one.json")) == 400)
        #expect(Self.postmasterAlive(data))
        // The shipped --connection-memory (16 KiB) takes a request with 6 KB of headers; 12 KB is 431.
        for (bytes, expected) in [(6_000, 200), (12_000, 431)] {
            var request = URLRequest(url: base.appendingPathComponent("readyz"))
            request.setValue("a=" + String(repeating: "x", count: bytes), forHTTPHeaderField: "Cookie")
            let status = ((try? await URLSession.shared.data(for: request))?.1 as? HTTPURLResponse)?.statusCode
            #expect(status == expected, "\(bytes) bytes of headers")
        }

        #expect(first.stop(SIGINT) == 0, "\(first.log)")
        #expect(!Self.postmasterAlive(data), "the embedded PostgreSQL outlived the server")
        // --access-log: one JSON line per request, all written by the graceful stop, none on the console.
        let lines = try String(contentsOf: accessLog, encoding: .utf8).split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count, "not every line is a JSON object: \(lines)")
        #expect(objects.filter { $0["path"] as? String == "/healthz" }.count == 1)
        #expect(objects.filter { $0["path"] as? String == "/rpc" && $0["status"] as? Int == 200 }.count == 1)
        #expect(objects.contains { $0["path"] as? String == "/readyz" })
        #expect(!first.log.contains("\"requestId\""), "request lines reached the console: \(first.log)")

        let second = try Server(dataDirectory: data)
        let again = try await second.baseURL()
        let kept = try await Self.rpc(
            again, token: token, #"{"jsonrpc":"2.0","id":2,"method":"Apps.Get","params":{"app":"kept"}}"#)
        #expect((kept["result"] as? [String: Any])?["id"] as? String == "kept", "\(kept)")
        // GET /version: the release and the commit `make` recorded beside the binary ("unknown" without one).
        let (versionData, _) = try await URLSession.shared.data(from: again.appendingPathComponent("version"))
        let build = try JSONSerialization.jsonObject(with: versionData) as? [String: String]
        let recorded = (try? String(contentsOfFile: BinaryRunner.executable!.path + ".commit", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(build == ["version": "0.1.0", "commit": recorded ?? "unknown"], "\(String(describing: build))")
        #expect(second.stop(SIGTERM) == 0, "\(second.log)")
        #expect(!Self.postmasterAlive(data))
    }
}
