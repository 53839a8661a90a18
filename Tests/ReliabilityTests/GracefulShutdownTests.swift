import Foundation
import RegistryTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// SIGTERM while clients hammer the real binary: requests already received are answered, nothing gets a
/// 5xx, and the process exits 0.
@Suite("Graceful shutdown under load")
struct GracefulShutdownTests {
    /// Outcomes of the load, by kind.
    final class Tally: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        /// Set when the server has exited: the clients stop.
        let stopped = Atomic<Bool>(false)
        func add(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
        var snapshot: [String: Int] { counts.withLock { $0 } }
    }

    static func hammer(_ client: RegistryClient, host: String, app: String, tally: Tally)
        async
    {
        var round = 0
        while !tally.stopped.load(ordering: .relaxed) {
            round += 1
            do {
                let status: Int
                switch round % 3 {
                case 0:
                    status = try await client.get("/.well-known/apple-app-site-association", host: host).1.statusCode
                case 1:
                    status = try await client.call(
                        "CanOpen.Check",
                        ["app": app, "platform": "ios", "version": "1.0", "url": "https://\(host)/r/\(round)"]
                    ).status
                default:
                    status = try await client.call(
                        "CanOpen.GetTable", ["app": app, "platform": "ios", "version": "1.0"]
                    )
                    .status
                }
                tally.add(status >= 500 ? "5xx" : status == 200 || status == 304 ? "ok" : "other \(status)")
            } catch {
                // After the listener closes, new connections are refused: expected, and the end of this client.
                tally.add("refused")
                return
            }
        }
    }

    @Test("SIGTERM during load: the request being uploaded is answered, no 5xx, exit status 0")
    func sigtermUnderLoad() async throws {
        let database = try TestPostgres.makeDatabase(suite: "graceful")
        defer { try? database.release() }
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("reliability-term-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dataDirectory) }
        let server = try await ServerProcess.start(databaseURL: database.url, dataDirectory: dataDirectory)
        let app = "term"
        let host = Fixture.hosts(app)[0]
        let admin = RegistryClient(baseURL: server.baseURL)
        try await Fixture.seed(admin, app: app)
        _ = try await admin.result("Routes.Create", ["app": app, "route": Fixture.route("r", path: "/r/*")])
        _ = try await admin.result("Releases.Publish", ["app": app, "platform": "ios", "version": "1.0"])

        let tally = Tally()
        let load = (0..<8).map { _ in
            Task {
                await Self.hammer(
                    RegistryClient(baseURL: server.baseURL, token: nil), host: host, app: app, tally: tally)
            }
        }
        try await Task.sleep(for: .milliseconds(800))

        // A request whose headers and half of its body arrived before SIGTERM; the rest comes after. It is sent
        // to the API's own host: /rpc does not answer on a registry domain (issue 41).
        let body = Array(
            #"{"jsonrpc":"2.0","id":7,"method":"CanOpen.Check","params":{"app":"term","platform":"ios","version":"1.0","url":"https://term.example.com/r/1"}}"#
                .utf8)
        let port = UInt16(server.baseURL.port ?? 0)
        let upload = try RawConnection(port: port)
        #expect(
            upload.send(
                "POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            ))
        #expect(upload.send(Array(body[..<40])))
        try await Task.sleep(for: .milliseconds(100))

        server.send(SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(upload.send(Array(body[40...])), "the connection of the in-flight request was cut")
        let answer = upload.readResponse()
        #expect(answer.status == 200, "in-flight request: \(answer.text)")
        #expect(answer.text.contains(#""decision":"open_in_app""#), "\(answer.text)")

        let status = await server.waitForExit()
        tally.stopped.store(true, ordering: .relaxed)
        for task in load { await task.value }
        let counts = tally.snapshot
        #expect(status == 0, "exit status \(status); stderr: \(server.standardError.suffix(1000))")
        #expect(counts["5xx", default: 0] == 0, "\(counts)")
        #expect(counts.keys.allSatisfy { $0 == "ok" || $0 == "refused" }, "\(counts)")
        #expect(counts["ok", default: 0] > 10, "the load hardly ran: \(counts)")
        await server.ensureStopped()
    }
}
