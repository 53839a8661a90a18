import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Database: pool, transactions, errors")
struct DatabaseTests {
    let fixture: StoreTestDatabase
    var database: Database { fixture.database }

    init() throws {
        fixture = try StoreTestDatabase(suite: "database", migrate: false, poolSize: 3)
        try fixture.database.withConnection { connection in
            try connection.execute(
                script: """
                    CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL CHECK (name <> ''), tags text[],
                        parent int REFERENCES items (id), data bytea, at timestamptz DEFAULT now());
                    """)
        }
    }

    private func count() throws -> Int {
        try database.withConnection { try $0.query("SELECT count(*) AS n FROM items")[0].int("n") }
    }

    @Test func valuesRoundTripAsBoundParameters() throws {
        let name = "Robert'); DROP TABLE items; -- \"quoted\" \\ back"
        let tags = ["a", "b,c", "{d}", "\"e\"", "back\\slash", "", "NULL"]
        let bytes = Data([0, 1, 0xfe, 0xff, 0x5c])
        let row = try database.withTransaction { tx in
            try tx.query("INSERT INTO items (id, name, tags, data) VALUES (\(1), \(name), \(tags), \(bytes))")
            return try tx.query("SELECT name, tags, data, at FROM items WHERE id = \(1)")[0]
        }
        #expect(try row.string("name") == name)
        #expect(try row.strings("tags") == tags)
        #expect(try row.bytes("data") == bytes)
        #expect(abs(try row.date("at").timeIntervalSinceNow) < 3600)
        #expect(try count() == 1)
    }

    @Test func queriesComposeAndRenumberPlaceholders() throws {
        var query: SQLQuery = "SELECT \(1) AS a"
        query.append(", \(2) AS b")
        let nested: SQLQuery = "SELECT \(0) AS z, \(query.sql.count) AS n"
        let combined: SQLQuery = "SELECT * FROM (\(query)) q, (\(nested)) r WHERE \(true)"
        #expect(combined.sql == "SELECT * FROM (SELECT $1 AS a, $2 AS b) q, (SELECT $3 AS z, $4 AS n) r WHERE $5")
        #expect(combined.binds == ["1", "2", "0", String(query.sql.count), "true"])
        let row = try database.withConnection { try $0.query(combined)[0] }
        #expect(try row.int("a") == 1 && row.int("b") == 2)
    }

    @Test func aTransactionThatFailsMidwayLeavesNothing() throws {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try database.withTransaction { tx in
                try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("one"))")
                try tx.query("INSERT INTO items (id, name) VALUES (\(2), \("two"))")
                throw Boom()
            }
        }
        let error = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in
                try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("one"))")
                try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("again"))")
            }
        }
        #expect(error.sqlState == .uniqueViolation)
        #expect(try count() == 0)
    }

    @Test func swallowingAFailedStatementCannotCommitTheRest() throws {
        let error = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in
                try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("one"))")
                _ = try? tx.query("INSERT INTO items (id, name) VALUES (\(1), \("dup"))")
            }
        }
        #expect(error.sqlState == .inFailedSQLTransaction)
        #expect(try count() == 0)
    }

    @Test func failuresCarryTheirSQLStateAndKeepSQLOutOfTheirDescription() throws {
        try database.withTransaction { tx in try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("one"))") }
        func failure(_ query: SQLQuery) throws -> StoreError {
            try #require(throws: StoreError.self) { try database.withTransaction { tx in try tx.query(query) } }
        }
        let unique = try failure("INSERT INTO items (id, name) VALUES (\(1), \("secret-value"))")
        #expect(unique.sqlState == .uniqueViolation)
        let foreign = try failure("INSERT INTO items (id, name, parent) VALUES (\(2), \("two"), \(99))")
        #expect(foreign.sqlState == .foreignKeyViolation)
        let check = try failure("INSERT INTO items (id, name) VALUES (\(3), \(""))")
        #expect(check.sqlState == .checkViolation)
        let syntax = try failure("SELEKT \("secret-value")")
        #expect(syntax.code == .serverError && syntax.sqlState == SQLState(rawValue: "42601"))
        let nul = try failure("INSERT INTO items (id, name) VALUES (\(4), \("nul\u{0}inside"))")
        #expect(nul.code == .invalidValue)
        for error in [unique, foreign, check, syntax, nul] {
            #expect(
                !error.description.contains("secret-value") && !error.description.contains("items")
                    && !error.description.contains("INSERT"))
            #expect(!error.logDetail.isEmpty)
        }
    }

    @Test func deadlocksAreRetriedUntilBothTransactionsCommit() throws {
        try database.withTransaction { tx in
            try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("a")), (\(2), \("b"))")
        }
        let attempts = Attempts()
        let outcomes = runConcurrently(2) { index -> String? in
            let (first, second) = index == 0 ? (1, 2) : (2, 1)
            do {
                try self.database.withTransaction { tx in
                    attempts.increment()
                    try tx.query("UPDATE items SET name = name || \("x") WHERE id = \(first)")
                    // Both hold their first row before either asks for the second: a deadlock.
                    try tx.query("SELECT pg_sleep(0.3)")
                    try tx.query("UPDATE items SET name = name || \("y") WHERE id = \(second)")
                }
                return nil
            } catch { return "\(error)" }
        }
        #expect(outcomes == [nil, nil])
        #expect(attempts.value >= 3)
        let names = try database.withConnection {
            try $0.query("SELECT name FROM items ORDER BY id").map { try $0.string("name") }
        }
        #expect(names.allSatisfy { $0.count == 3 })
    }

    @Test func exhaustedRetriesReportAborted() throws {
        let error = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in
                try tx.query("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$")
            }
        }
        #expect(error.isRetryable)
        #expect(error.sqlState == .serializationFailure)
    }

    @Test func waitersTimeOutWhenThePoolIsExhausted() throws {
        let small = Database(Database.Configuration(url: fixture.url, poolSize: 1, acquireTimeout: .milliseconds(200)))
        defer { small.close() }
        let error = try #require(throws: StoreError.self) {
            try small.withConnection { _ -> Void in try small.withConnection { _ -> Void in } }
        }
        #expect(error.code == .poolTimeout)
        #expect(small.openConnections == 1)
    }

    @Test func manyThreadsShareABoundedPool() throws {
        let results = runConcurrently(12) { index -> Bool in
            (try? self.database.withTransaction { tx -> Void in
                try tx.query("INSERT INTO items (id, name) VALUES (\(index), \("n\(index)"))")
                try tx.query(prepared: "SELECT pg_sleep(0.05), \(index) AS i")
            }) != nil
        }
        #expect(results.allSatisfy { $0 })
        #expect(try count() == 12)
        #expect(database.openConnections <= 3)
    }

    @Test func aConnectionLostAtCommitIsReportedAsAnUnknownOutcomeNeverRetried() throws {
        let killer = try Connection(url: fixture.url)
        let attempts = Attempts()
        let error = try #require(throws: StoreError.self) {
            try database.withTransaction { tx in
                attempts.increment()
                try tx.query("INSERT INTO items (id, name) VALUES (\(1), \("maybe"))")
                // Waits (up to 5 s) until the session is gone, so COMMIT meets a dead connection.
                try killer.query("SELECT pg_terminate_backend(\(Int(tx.connection.backendPID)), 5000)")
            }
        }
        #expect(error.code == .commitOutcomeUnknown && error.isConnectionFailure && !error.isRetryable)
        #expect(attempts.value == 1)
        #expect(try count() == 0)
    }

    @Test func aTerminatedSessionIsReplacedOnTheNextUse() throws {
        let pid = try database.withConnection { Int($0.backendPID) }
        let other = try Connection(url: fixture.url)
        try other.query("SELECT pg_terminate_backend(\(pid))")
        // The killed session may be the idle one handed out next: the pool must notice and replace it.
        let next = try database.withTransaction { tx in try tx.query("SELECT pg_backend_pid() AS pid")[0].int("pid") }
        #expect(next != pid)
    }
}

/// A counter shared by threads.
final class Attempts: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
