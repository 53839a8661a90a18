import Foundation
import RegistryService
import RegistryTesting
import RouteStore
import Synchronization
import Testing

/// Two registry servers (in process, each with its own pool, listener and monitor) on a primary with a
/// streaming hot standby, reached through the multi-host URL a production fleet uses.
struct HAFleet {
    static let database = "ha"
    let postgres: ReplicatedPostgres
    let servers: [TestRegistryServer]
    let lines: LogLines

    init(servers count: Int = 2) throws {
        postgres = try ReplicatedPostgres(database: Self.database)
        let lines = LogLines()
        self.lines = lines
        let url = postgres.failoverURL(Self.database)
        let database = TestDatabase(url: url, name: Self.database, serverURL: postgres.primary.url)
        var servers: [TestRegistryServer] = []
        do {
            for index in 0..<count {
                servers.append(
                    try TestRegistryServer(
                        suite: "ha", database: database,
                        runtime: RegistryRuntime.Options(pollInterval: .milliseconds(250)),
                        log: { lines.append("server \(index): \($0)") }))
            }
        } catch {
            servers.forEach { $0.stop() }
            postgres.destroy()
            throw error
        }
        self.servers = servers
    }

    func tearDown() {
        servers.forEach { $0.stop() }
        postgres.destroy()
    }

    /// A store on `url` outside every server (what the database holds).
    static func store(_ url: String) -> Store { Store(database: Database(url: url, poolSize: 1)) }
}

/// Log lines of the servers, for assertions and failure messages.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Routes.Create params for badoo: route `id` on `/id/*`, for iOS since 5.0.
func iosRoute(_ id: String) -> [String: Any] {
    ["app": "badoo", "route": ["id": id, "pattern": ["path": "/\(id)/*"], "platforms": ["ios": ["since": "5.0"]]]]
}

/// A write with its own deadline (`X-Request-Timeout-Ms`): its answer, whatever it is, comes no later than the
/// deadline plus 100 ms (issue 43), asserted here for every write of the HA tests.
func deadlineWrite(
    _ server: TestRegistryServer, _ method: String, _ params: [String: Any], deadline: Duration = .seconds(3),
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String: Any] {
    let milliseconds = deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000
    let start = ContinuousClock.now
    let answer = try await server.call(method, params, headers: ["X-Request-Timeout-Ms": String(milliseconds)])
    let took = start.duration(to: .now)
    #expect(
        took <= deadline + .milliseconds(100),
        "\(method) answered after \(took), its deadline \(deadline): \(answer)", sourceLocation: sourceLocation)
    return answer
}

/// Calls `write` until it succeeds (returns the seconds it took), or fails after `timeout`.
func firstSuccess(
    within timeout: Duration, _ write: () async throws -> [String: Any]
) async throws -> (seconds: Double, response: [String: Any]) {
    let start = ContinuousClock.now
    var last: [String: Any] = [:]
    while start.duration(to: .now) < timeout {
        last = (try? await write()) ?? [:]
        if last["result"] != nil { return (start.duration(to: .now).secondsValue, last) }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HAError("no successful write within \(timeout); last answer: \(last)")
}

struct HAError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
