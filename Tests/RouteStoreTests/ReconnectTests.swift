import Foundation
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// Server restarts and killed sessions, on a cluster of this suite's own.
@Suite("Reconnect after failures")
final class ReconnectTests {
    let cluster: TestCluster

    init() throws { cluster = try TestPostgres.privateCluster() }

    deinit { cluster.destroy() }

    @Test func thePoolRecoversAfterTheServerRestarts() throws {
        let database = Database(Database.Configuration(url: cluster.url, poolSize: 3, connectTimeoutSeconds: 2))
        defer { database.close() }
        try database.withTransaction { tx in try tx.query("CREATE TABLE notes (text text)") }
        // Fill the pool with idle connections that the restart will kill.
        _ = runConcurrently(3) { _ in
            try? database.withTransaction { tx -> Void in try tx.query("SELECT pg_sleep(0.1)") }
        }
        try cluster.stop()
        let down = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in try tx.query("INSERT INTO notes VALUES (\("lost"))") }
        }
        #expect(down.isConnectionFailure)
        try cluster.start()
        try database.withTransaction { tx in try tx.query("INSERT INTO notes VALUES (\("kept"))") }
        let notes = try database.withTransaction { tx in
            try tx.query("SELECT text FROM notes").map { try $0.string("text") }
        }
        #expect(notes == ["kept"])
    }

    @Test func aSessionKilledMidTransactionIsUnavailableAndWritesNothing() throws {
        let database = Database(url: cluster.url, poolSize: 2)
        defer { database.close() }
        try database.withTransaction { tx in try tx.query("CREATE TABLE IF NOT EXISTS items (id int)") }
        let killer = try Connection(url: cluster.url)
        let error = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in
                try tx.query("INSERT INTO items VALUES (\(1))")
                try killer.query("SELECT pg_terminate_backend(\(Int(tx.connection.backendPID)))")
                try tx.query("INSERT INTO items VALUES (\(2))")
            }
        }
        #expect(error.isConnectionFailure)
        let count = try database.withTransaction { tx in try tx.query("SELECT count(*) AS n FROM items")[0].int("n") }
        #expect(count == 0)
    }

    @Test func theListenerReconnectsAfterTheServerRestarts() throws {
        let received = Received<ChangeNotice>()
        let reconnects = Attempts()
        let listener = ChangeListener(
            url: cluster.url, maxBackoff: .milliseconds(200), onChange: { received.append($0) },
            onReconnect: { reconnects.increment() })
        #expect(listener.start())
        defer { listener.stop() }
        try cluster.stop()
        try cluster.start()
        let database = Database(url: cluster.url, poolSize: 1)
        defer { database.close() }
        // Notifications sent before the listener is back are lost by design; keep sending until one lands.
        let deadline = Date().addingTimeInterval(20)
        while received.values.isEmpty && Date() < deadline {
            try database.withTransaction { tx in
                try tx.query("SELECT pg_notify(\(Store.changeChannel), \(#"{"kind":"ping","ids":[]}"#))")
            }
            usleep(100_000)
        }
        #expect(received.values.first == ChangeNotice(kind: "ping", ids: []))
        #expect(reconnects.value >= 1)
    }
}
