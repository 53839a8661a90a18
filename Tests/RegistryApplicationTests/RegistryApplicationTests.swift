import Foundation
import HTTPServing
import RegistryApplication
import RegistryService
import RegistryTesting
import RouteStore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real application on a test database: it answers, stops cleanly in one order, and writes the clicks
/// counted in memory on stop unless told to leave the database as it was.
@Suite("RegistryApplication", .serialized)
struct RegistryApplicationTests {
    /// A configuration for `database`, with periodic click writes far apart so only the final one counts.
    static func configuration(_ database: TestDatabase, writesCounters: Bool = true) -> Configuration {
        Configuration(
            database: .url(database.url), poolSize: 2,
            runtime: RegistryRuntime.Options(clickFlushInterval: .seconds(3600)),
            http: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), requestLog: .silent,
            writesCounters: writesCounters)
    }

    /// The clicks stored for go.example/app, read through a pool of its own.
    static func storedClicks(_ database: TestDatabase) throws -> Int {
        let pool = Database(url: database.url, poolSize: 1)
        defer { pool.close() }
        let store = Store(database: pool)
        return try store.read(deadline: .now + .seconds(5)) { tx in
            try store.clicks.counts(domain: "go.example", code: "app", in: tx).reduce(0) { $0 + $1.count }
        }
    }

    @Test func answersHealthAndWritesClicksOnStop() async throws {
        let database = try TestPostgres.makeDatabase(suite: "RegistryApplication")
        defer { try? database.release() }
        let application = RegistryApplication(configuration: Self.configuration(database))
        try application.start()
        let (_, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(application.port)/healthz")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        for _ in 0..<3 {
            application.service.clicks.count(domain: "go.example", code: "app", platform: "ios", outcome: "landing")
        }
        #expect(try Self.storedClicks(database) == 0)
        let began = ContinuousClock.now
        let outcomes = application.stop()
        #expect(ContinuousClock.now - began < .seconds(10))
        // The reverse of the start order (`ServiceGroup`).
        #expect(
            outcomes.map(\.name) == [
                "http", "request log", "webhook delivery", "token-use flushing", "click flushing", "database monitor",
                "snapshot persistence", "pool",
            ])
        #expect(outcomes.allSatisfy { $0.finishedInTime }, "\(outcomes)")
        #expect(try Self.storedClicks(database) == 3)
        // Stopped means stopped: the port no longer answers.
        await #expect(throws: (any Error).self) {
            _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(application.port)/healthz")!)
        }
    }

    @Test("without counter writers (backup check) nothing counted is written on stop")
    func leavesTheDatabaseAsItWasWithoutCounterWriters() throws {
        let database = try TestPostgres.makeDatabase(suite: "RegistryApplicationNoWrites")
        defer { try? database.release() }
        let application = RegistryApplication(configuration: Self.configuration(database, writesCounters: false))
        try application.start()
        application.service.clicks.count(domain: "go.example", code: "app", platform: "ios", outcome: "landing")
        let stopped = application.stop().map(\.name)
        #expect(stopped.contains("http") && !stopped.contains("click flushing"))
        #expect(!stopped.contains("token-use flushing"))
        #expect(try Self.storedClicks(database) == 0)
    }

    @Test("the test server is the application serve runs")
    func theTestServerIsBuiltByTheApplication() throws {
        let server = try TestRegistryServer(suite: "RegistryApplicationTestServer")
        defer { server.shutdown() }
        #expect(server.application.server === server.server)
        #expect(server.application.service === server.service)
        // Stopping it stops the application's services (the test server's own stop then stops nothing twice).
        let stopped = server.application.stop().map(\.name)
        #expect(stopped.first == "http" && stopped.contains("click flushing"))
    }

    @Test("a database that does not answer fails a start that requires it, leaving nothing running")
    func aRequiredDatabaseThatIsAwayFailsTheStart() {
        var configuration = Configuration(
            database: .url("postgresql://nobody@127.0.0.1:1/none?connect_timeout=1"), poolSize: 1,
            http: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 1), requestLog: .silent,
            writesCounters: false, requiresDatabase: true)
        configuration.runtime = RegistryRuntime.Options(probeTimeout: .seconds(1))
        let application = RegistryApplication(configuration: configuration)
        #expect(throws: DatabaseUnavailable.self) { try application.start() }
        #expect(application.stop().isEmpty)
    }
}
