import Foundation
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connecting past a hung host (a SIGSTOPped primary first in a failover URL): the hosts are raced, so a hung
/// one costs a quarter of a second, the caller never waits past its deadline, and a connection made after it
/// gave up is the next caller's.
@Suite("Database: connecting never outlasts the caller's deadline")
struct ConnectDeadlineTests {
    let fixture: StoreTestDatabase
    let hung: HungListener

    init() throws {
        fixture = try StoreTestDatabase(suite: "connect-deadline", migrate: false, poolSize: 1)
        hung = try HungListener()
    }

    /// The URL of the test database with the hung host first; the tests that need it run when `DATABASE_URL`
    /// is unset or a URI (the harness's own cluster's is one).
    private var failoverURL: String {
        get throws { try hung.first(in: fixture.url) }
    }

    static let urlIsAURI = HungListener.testURLIsAURI

    @Test func aHungHostFailsTheCallerAtItsDeadlineAndTheAttemptGivesItsPlaceBack() throws {
        let database = Database(
            Database.Configuration(url: "postgresql://routereg@127.0.0.1:\(hung.port)/nowhere", poolSize: 1))
        defer { database.close() }
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) {
            try database.withConnection(deadline: started + .seconds(1)) { try $0.query("SELECT 1 AS one") }
        }
        let waited = started.duration(to: .now)
        #expect(error.code == .deadlineExceeded)
        #expect(waited > .milliseconds(900) && waited < .milliseconds(1900), "\(waited)")
        // The attempt goes on without the caller for 2 s at least, then fails and frees its place.
        #expect(database.openConnections == 1)
        #expect(eventually { database.openConnections == 0 })
        #expect(hung.takeConnections() == 1)
    }

    @Test(.enabled(if: urlIsAURI, "needs a URI to put the hung host in"))
    func behindAHungFirstHostTheNextHostAnswersWithinTheDeadline() throws {
        let database = Database(
            Database.Configuration(url: try hung.first(in: hung.first(in: fixture.url)), poolSize: 1))
        defer { database.close() }
        let started = ContinuousClock.now
        let one = try database.withConnection(deadline: started + .seconds(1)) {
            try $0.query("SELECT 1 AS one")[0].int("one")
        }
        let waited = started.duration(to: .now)
        #expect(one == 1)
        // Two hung hosts cost a quarter of a second each (before: connect_timeout's 2 s each, past the deadline).
        #expect(waited > .milliseconds(450) && waited < .milliseconds(1000), "\(waited)")
        #expect(hung.takeConnections() == 2)
    }

    @Test(.enabled(if: urlIsAURI, "needs a URI to put the hung host in"))
    func aConnectionMadeAfterTheDeadlineServesTheNextCaller() throws {
        let database = Database(Database.Configuration(url: try failoverURL, poolSize: 1))
        defer { database.close() }
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) {
            try database.withConnection(deadline: started + .milliseconds(100)) { try $0.query("SELECT 1 AS one") }
        }
        #expect(error.code == .deadlineExceeded)
        #expect(started.duration(to: .now) < .milliseconds(240), "\(started.duration(to: .now))")
        #expect(database.openConnections == 1)
        // The next caller waits for the pool's one place and is woken with the connection made behind the
        // hung host (at about 250 ms).
        let one = try database.withConnection(deadline: .now + .seconds(5)) {
            try $0.query("SELECT 1 AS one")[0].int("one")
        }
        #expect(one == 1)
        #expect(started.duration(to: .now) < .milliseconds(1500), "\(started.duration(to: .now))")
        #expect(database.openConnections == 1)
        #expect(hung.takeConnections() == 1)
    }

    @Test(.enabled(if: urlIsAURI, "needs a URI to put the hung host in"))
    func aConnectionMadeAfterThePoolClosedIsClosed() throws {
        let database = Database(Database.Configuration(url: try failoverURL, poolSize: 1))
        let error = try #require(throws: StoreError.self) {
            try database.withConnection(deadline: .now + .milliseconds(100)) { try $0.query("SELECT 1 AS one") }
        }
        #expect(error.code == .deadlineExceeded)
        database.close()
        #expect(database.openConnections == 1)
        #expect(eventually { database.openConnections == 0 })
    }
}
