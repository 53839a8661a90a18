import Foundation
import RouteStore
import Testing

/// The session advisory lock (the delivery watch's observer lock): taken on a connection of its own against the
/// test database, and never waited for past its deadline, even behind a hung host (a SIGSTOPped primary first
/// in a failover URL): the hosts are raced, so however many of them hang, the primary is reached in time.
@Suite("SessionLock: a lock on a connection of its own, never waited for past the deadline")
struct SessionLockTests {
    let fixture: StoreTestDatabase
    let hung: HungListener
    static let key: Int64 = 0x6c6f_636b  // "lock"

    init() throws {
        fixture = try StoreTestDatabase(suite: "session-lock", migrate: false, poolSize: 1)
        hung = try HungListener()
    }

    @Test func theLockIsTakenWhenFreeAndNotWhileAnotherSessionHoldsIt() throws {
        let first = SessionLock(url: fixture.url, key: Self.key)
        let second = SessionLock(url: fixture.url, key: Self.key)
        #expect(try first.tryAcquire(deadline: .now + .seconds(5)))
        #expect(first.isHeld)
        #expect(try first.tryAcquire(deadline: .now + .seconds(5)))
        #expect(try heldLocks() == 1)
        #expect(try second.tryAcquire(deadline: .now + .seconds(5)) == false)
        #expect(!second.isHeld)
        #expect(first.confirm(deadline: .now + .seconds(5)))
        first.release(deadline: .now + .seconds(2))
        #expect(!first.isHeld)
        #expect(try second.tryAcquire(deadline: .now + .seconds(5)))
        second.release(deadline: .now + .seconds(2))
        #expect(try eventually { try heldLocks() == 0 })
    }

    @Test func aDeadlineAlreadyPassedThrowsWithoutConnecting() throws {
        let lock = SessionLock(url: "postgresql://routereg@127.0.0.1:\(hung.port)/nowhere", key: Self.key)
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) { try lock.tryAcquire(deadline: started) }
        #expect(error.code == .deadlineExceeded)
        // Before: a connect with connect_timeout's floor, 2 s.
        #expect(started.duration(to: .now) < .milliseconds(500), "\(started.duration(to: .now))")
        usleep(200_000)
        #expect(hung.takeConnections() == 0)
    }

    @Test func hungHostsFailTheCallerAtItsDeadline() throws {
        let lock = SessionLock(
            url: "postgresql://routereg@127.0.0.1:\(hung.port),127.0.0.1:\(hung.port)/nowhere", key: Self.key)
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) { try lock.tryAcquire(deadline: started + .seconds(1)) }
        let waited = started.duration(to: .now)
        #expect(error.code == .deadlineExceeded)
        #expect(waited > .milliseconds(900) && waited < .milliseconds(1500), "\(waited)")
        #expect(!lock.isHeld)
        // Both hosts were tried before the deadline (before: the second only after the first's 2 s).
        #expect(hung.takeConnections() == 2)
    }

    @Test(.enabled(if: HungListener.testURLIsAURI, "needs a URI to put the hung host in"))
    func twoHungHostsBeforeThePrimaryStillLeaveTheLockToTheFirstServerThatCan() throws {
        let lock = SessionLock(url: try hung.first(in: hung.first(in: fixture.url)), key: Self.key)
        let started = ContinuousClock.now
        // A deadline under 2 s (before: no server took the lock behind two hung hosts until the outage ended).
        #expect(try lock.tryAcquire(deadline: started + .seconds(1)))
        let waited = started.duration(to: .now)
        #expect(waited > .milliseconds(450) && waited < .seconds(1), "\(waited)")
        #expect(try heldLocks() == 1)
        lock.release(deadline: .now + .seconds(2))
        #expect(hung.takeConnections() == 2)
    }

    @Test(.enabled(if: HungListener.testURLIsAURI, "needs a URI to put the hung host in"))
    func aConnectionMadeAfterTheDeadlineIsClosedAndHoldsNoLock() throws {
        let name = "session-lock-late-\(UInt32.random(in: 0...UInt32.max))"
        let url = try hung.first(in: hung.first(in: fixture.url)) + "?application_name=\(name)"
        let lock = SessionLock(url: url, key: Self.key)
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) {
            try lock.tryAcquire(deadline: started + .milliseconds(300))
        }
        let waited = started.duration(to: .now)
        #expect(error.code == .deadlineExceeded)
        #expect(waited > .milliseconds(250) && waited < .milliseconds(450), "\(waited)")
        #expect(!lock.isHeld)
        // The connection is made behind the hung hosts at about 500 ms and closed at once: past that, no
        // session of it is left, no lock is held, and another session takes the lock.
        while ContinuousClock.now < started + .milliseconds(1000) { usleep(10_000) }
        #expect(try eventually { try sessions(named: name) == 0 })
        #expect(try heldLocks() == 0)
        let other = SessionLock(url: fixture.url, key: Self.key)
        #expect(try other.tryAcquire(deadline: .now + .seconds(5)))
        other.release(deadline: .now + .seconds(2))
    }

    /// Advisory locks on `key` granted in the test database.
    private func heldLocks() throws -> Int {
        try fixture.database.withConnection(deadline: .now + .seconds(5)) {
            // A bigint key is classid (high 32 bits), objid (low 32 bits), objsubid 1.
            try $0.query(
                """
                SELECT count(*) AS held FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid = 0 AND objid = \(String(Self.key))
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            )[0].int("held")
        }
    }

    /// Sessions of the server whose application_name is `name`.
    private func sessions(named name: String) throws -> Int {
        try fixture.database.withConnection(deadline: .now + .seconds(5)) {
            try $0.query("SELECT count(*) AS sessions FROM pg_stat_activity WHERE application_name = \(name)")[0]
                .int("sessions")
        }
    }
}
