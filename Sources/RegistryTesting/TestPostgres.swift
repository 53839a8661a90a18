import Foundation
import Synchronization

/// Real PostgreSQL databases for tests, with nothing to set up.
///
/// `makeDatabase(suite:)` gives each suite its own fresh database. Where it lives:
/// - with `DATABASE_URL` set, on that server (the URL's user must be allowed to create databases);
/// - otherwise on one throwaway cluster per test process (`cluster`), started on first use, listening on
///   127.0.0.1 on a free port, and destroyed when the process exits.
///
/// Tests that stop, restart or crash PostgreSQL must not do it to the shared `cluster` while other tests run
/// (they would fail at random): use `privateCluster()` and destroy it at the end, or mark the suite
/// `.serialized` and restart the shared cluster before returning.
public enum TestPostgres {
    private static let shared = Mutex<TestCluster?>(nil)

    /// A new, uniquely named, empty database for `suite` (see the type's documentation for where).
    public static func makeDatabase(suite: String) throws -> TestDatabase {
        try makeDatabase(suite: suite, environment: ProcessInfo.processInfo.environment)
    }

    /// Like `makeDatabase(suite:)` with the environment given explicitly (tests of the harness itself).
    public static func makeDatabase(suite: String, environment: [String: String]) throws -> TestDatabase {
        let external = environment["DATABASE_URL"].map { !$0.isEmpty } ?? false
        return try TestDatabase.create(
            onServer: serverURL(environment: environment), suite: suite, goesWithCluster: !external)
    }

    /// The server URL databases are created through: `DATABASE_URL` if set, else the shared cluster's
    /// (started if needed, and restarted if a test left it stopped).
    public static func serverURL(environment: [String: String]) throws -> String {
        if let external = environment["DATABASE_URL"], !external.isEmpty {
            return external
        }
        let cluster = try self.cluster
        if !cluster.isRunning { try cluster.start() }
        return cluster.url
    }

    /// The process's shared throwaway cluster, started on first use (thread-safe). Exposes `stop()`, `start()`,
    /// `isRunning` and `url`; see the type's documentation before stopping it.
    public static var cluster: TestCluster {
        get throws {
            try shared.withLock { existing in
                if let existing { return existing }
                let started = try TestCluster.launch()
                existing = started
                return started
            }
        }
    }

    /// A new throwaway cluster owned by the caller, for tests that stop, restart or crash the server.
    /// Call `destroy()` when done (a forgotten one is destroyed at process exit).
    public static func privateCluster() throws -> TestCluster {
        try TestCluster.launch()
    }
}
