import Foundation
import RouteStore
import Synchronization

/// A freshly created, uniquely named database for one test suite, on the shared test server.
///
/// Create one with `TestPostgres.makeDatabase(suite:)`, use `url` with libpq, and call `release()` when done
/// (a `defer` right after creating it). Databases on the process's throwaway cluster disappear with it at exit;
/// on a server given by `DATABASE_URL` they stay until dropped, which `release()` does.
public struct TestDatabase: Sendable {
    /// A libpq connection URI for this database.
    public let url: String
    /// The database's name (unique per call: suite, process, counter and random bits).
    public let name: String
    /// The server URL the database was created through; dropping connects there (never to the database itself).
    public let serverURL: String
    /// True when the database lives on the process's throwaway cluster, which deletes it at exit.
    public let goesWithCluster: Bool

    /// Names an existing database (e.g. one reached through a multi-host failover URL); `drop()` goes through
    /// `serverURL`.
    public init(url: String, name: String, serverURL: String, goesWithCluster: Bool = false) {
        self.url = url
        self.name = name
        self.serverURL = serverURL
        self.goesWithCluster = goesWithCluster
    }

    /// Creates a new database on the server at `serverURL`.
    static func create(onServer serverURL: String, suite: String, goesWithCluster: Bool = false) throws -> TestDatabase
    {
        let name = uniqueName(suite: suite)
        try PostgresServerAdmin(url: serverURL).createDatabase(name)
        return TestDatabase(
            url: ConnectionString.replacingDatabase(in: serverURL, with: name), name: name, serverURL: serverURL,
            goesWithCluster: goesWithCluster)
    }

    /// Drops the database, disconnecting any session still using it. Dropping twice is harmless.
    public func drop() throws {
        try PostgresServerAdmin(url: serverURL).dropDatabase(name, force: true)
    }

    /// Ends the suite's use of the database: drops it on a `DATABASE_URL` server, and leaves it on the
    /// throwaway cluster, which deletes it at exit. Each `DROP DATABASE` forces a checkpoint, waits for every
    /// session of the cluster to take note and for the dropped database's sessions to end; a hundred suites
    /// ending together would do that a hundred times and can stall the cluster for seconds, failing other
    /// suites' calls past their deadlines.
    public func release() throws {
        if !goesWithCluster { try drop() }
    }

    private static let counter = Atomic<Int>(0)

    /// `t_<suite>_<pid>_<n>_<random>`: lowercase so SQL needs no quoting, under PostgreSQL's 63-byte limit,
    /// and unique even across test processes sharing one `DATABASE_URL` server.
    static func uniqueName(suite: String) -> String {
        let cleaned = suite.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }
        let number = counter.add(1, ordering: .relaxed).newValue
        let random = UUID().uuidString.prefix(6).lowercased()
        let tail = "_\(getpid())_\(number)_\(random)"
        return "t_" + String(cleaned.prefix(60 - tail.count)) + tail
    }
}
