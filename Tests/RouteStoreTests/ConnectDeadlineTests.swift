import Foundation
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connecting past a hung host (a SIGSTOPped primary first in a failover URL): libpq waits connect_timeout
/// (2 s at least) per host, the caller fails at its deadline all the same, and the connection made later is
/// the next caller's.
@Suite("Database: connecting never outlasts the caller's deadline")
struct ConnectDeadlineTests {
    let fixture: StoreTestDatabase
    let hung: HungListener

    init() throws {
        fixture = try StoreTestDatabase(suite: "connect-deadline", migrate: false, poolSize: 1)
        hung = try HungListener()
    }

    /// The URL of the test database with the hung host first, as in `postgresql://u@primary,standby/db`; the
    /// tests that need it run when `DATABASE_URL` is unset or a URI (the harness's own cluster's is one).
    private var failoverURL: String {
        get throws {
            let url = fixture.url
            let scheme = try #require(url.range(of: "://"), "a URI: \(url)")
            let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
            let hosts = url[scheme.upperBound..<authorityEnd].firstIndex(of: "@").map(url.index(after:))
            let at = hosts ?? scheme.upperBound
            return url[..<at] + "127.0.0.1:\(hung.port)," + url[at...]
        }
    }

    static let urlIsAURI =
        ProcessInfo.processInfo.environment["DATABASE_URL"].map {
            $0.isEmpty || $0.hasPrefix("postgresql://") || $0.hasPrefix("postgres://")
        } ?? true

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
        // Before: connect_timeout's floor, 2 s.
        #expect(waited > .milliseconds(900) && waited < .milliseconds(1900), "\(waited)")
        // The attempt goes on without the caller until connect_timeout, then fails and frees its place.
        #expect(database.openConnections == 1)
        #expect(eventually { database.openConnections == 0 })
        #expect(hung.takeConnections() == 1)
    }

    @Test(.enabled(if: urlIsAURI, "needs a URI to put the hung host in"))
    func aConnectionMadeAfterTheDeadlineServesTheNextCaller() throws {
        let database = Database(Database.Configuration(url: try failoverURL, poolSize: 1))
        defer { database.close() }
        let started = ContinuousClock.now
        let error = try #require(throws: StoreError.self) {
            try database.withConnection(deadline: started + .seconds(1)) { try $0.query("SELECT 1 AS one") }
        }
        #expect(error.code == .deadlineExceeded)
        #expect(started.duration(to: .now) < .milliseconds(1900), "\(started.duration(to: .now))")
        #expect(database.openConnections == 1)
        // The next caller waits for the pool's one place and is woken with the connection made behind the
        // hung host (at about 2 s); its own connect would have spent another 2 s on the hung host.
        let one = try database.withConnection(deadline: .now + .seconds(5)) {
            try $0.query("SELECT 1 AS one")[0].int("one")
        }
        #expect(one == 1)
        #expect(started.duration(to: .now) < .milliseconds(3500), "\(started.duration(to: .now))")
        #expect(database.openConnections == 1)
        #expect(hung.takeConnections() == 1)
    }

    @Test(.enabled(if: urlIsAURI, "needs a URI to put the hung host in"))
    func aConnectionMadeAfterThePoolClosedIsClosed() throws {
        let database = Database(Database.Configuration(url: try failoverURL, poolSize: 1))
        let error = try #require(throws: StoreError.self) {
            try database.withConnection(deadline: .now + .seconds(1)) { try $0.query("SELECT 1 AS one") }
        }
        #expect(error.code == .deadlineExceeded)
        database.close()
        #expect(database.openConnections == 1)
        #expect(eventually { database.openConnections == 0 })
    }

    /// Whether `condition` holds within 10 s (connect_timeout is 2 s per host).
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes the handshake and takes what libpq
/// sends, and nothing ever answers, as with a SIGSTOPped server.
final class HungListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard descriptor >= 0 && listening else {
            if descriptor >= 0 { close(descriptor) }
            throw StoreError(.connectionFailed, detail: "cannot listen on 127.0.0.1")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// How many connections were made to it so far (each libpq attempt is one); they are taken off the queue.
    func takeConnections() -> Int {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var count = 0
        while case let connection = accept(descriptor, nil, nil), connection >= 0 {
            close(connection)
            count += 1
        }
        return count
    }
}
