import Foundation
import RouteStore

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests: a fresh directory under /tmp, listening on 127.0.0.1 on a free
/// port (so tests and child processes reach it by URL), tuned for speed over durability (no fsync).
///
/// Tests that stop, restart or crash a cluster should own one (`TestPostgres.privateCluster()`) rather than
/// touch the shared `TestPostgres.cluster`, which every other test in the process is using.
/// `destroy()` stops it and deletes its files; whatever a test forgets is destroyed at process exit, and a
/// watchdog process does the same if the test process dies without exiting normally.
public final class TestCluster: Sendable {
    /// The cluster's directory (data, socket, log); removed by `destroy()`.
    public let directory: String
    /// The TCP port on 127.0.0.1, stable across `stop()`/`start()`.
    public let port: Int
    private let server: EmbeddedPostgres

    private init(directory: String, port: Int, server: EmbeddedPostgres) {
        self.directory = directory
        self.port = port
        self.server = server
    }

    /// A URL for the `postgres` maintenance database: the server URL to create databases through.
    public var url: String { url(database: "postgres") }

    /// A URL for `database` on this cluster, over TCP.
    public func url(database: String) -> String {
        ConnectionString.replacingDatabase(in: "postgresql://postgres@127.0.0.1:\(port)/postgres", with: database)
    }

    /// Starts the server again on the same port with the same data (no-op if it runs).
    public func start() throws {
        try server.start()
    }

    /// Stops the server (fast shutdown; sessions are cut); the data stays for `start()`.
    public func stop() throws {
        try server.stop()
    }

    /// Whether the server process is alive.
    public var isRunning: Bool { server.isRunning }

    /// The postmaster's process id while it runs.
    public var postmasterPID: Int32? { server.postmasterPID }

    /// Kills the postmaster with SIGKILL, as a crash would, and waits until it is gone.
    /// Its backends notice and exit on their own; `start()` recovers from what is left.
    public func crash() throws {
        guard let pid = server.postmasterPID else { throw TestPostgresError("crash(): the server is not running") }
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while server.postmasterPID != nil {
            guard Date() < deadline else { throw TestPostgresError("crash(): PID \(pid) did not die") }
            usleep(10_000)
        }
    }

    /// A new, uniquely named database on this cluster (see `TestDatabase`).
    public func makeDatabase(suite: String) throws -> TestDatabase {
        try TestDatabase.create(onServer: url, suite: suite, goesWithCluster: true)
    }

    /// Stops the server and deletes the cluster's directory. Errors are ignored: this is cleanup.
    public func destroy() {
        try? server.stop()
        Self.reportTrouble(inLogOf: directory)
        Self.keepLog(of: directory)
        try? FileManager.default.removeItem(atPath: directory)
        TestClusterRegistry.forget(self)
        TestClusterRegistry.stopWatching(directory)
    }

    /// Lines of the server log saying the cluster crashed, restarted its backends or refused connections, on
    /// standard error before the log is deleted: when the shared cluster stops answering under several suites
    /// at once, the log that says why would otherwise go with the directory.
    static func reportTrouble(inLogOf directory: String) {
        guard let text = try? String(contentsOfFile: directory + "/postgres.log", encoding: .utf8) else { return }
        let trouble = troubleLines(in: text)
        guard !trouble.isEmpty else { return }
        let shown = trouble.prefix(20).joined(separator: "\n")
        FileHandle.standardError.write(Data("test PostgreSQL log (\(directory)):\n\(shown)\n".utf8))
    }

    /// Copies the server log into `ROUTEREG_TEST_KEEP_LOGS` (a directory) when that is set, for reading a
    /// whole run's log after a failure the trouble lines do not explain.
    static func keepLog(of directory: String) {
        guard let keep = ProcessInfo.processInfo.environment["ROUTEREG_TEST_KEEP_LOGS"], !keep.isEmpty else { return }
        let name = "postgres-\(getpid())-" + (directory as NSString).lastPathComponent + ".log"
        try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: directory + "/postgres.log", toPath: keep + "/" + name)
    }

    /// The lines of a server log that say something went wrong with the server itself, or that a session
    /// waited over a second for a lock, a statement took over two or a checkpoint took over a second.
    public static func troubleLines(in log: String) -> [Substring] {
        let signs = [
            "PANIC", "terminated by signal", "terminating any other active server processes",
            "all server processes terminated", "too many clients", "out of memory", "No space left",
            "still waiting for", "duration: ",
        ]
        return log.split(separator: "\n").filter { line in
            signs.contains { line.contains($0) } || (line.contains("checkpoint complete") && slowCheckpoint(line))
        }
    }

    /// Whether a `checkpoint complete: … total=S s` line took a second or more.
    private static func slowCheckpoint(_ line: Substring) -> Bool {
        guard let range = line.range(of: "total=") else { return false }
        let digits = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return (Double(digits) ?? 0) >= 1
    }

    /// Creates and starts a cluster in a new temporary directory, retrying when the chosen port was taken.
    static func launch() throws -> TestCluster {
        let directory = try makeTemporaryDirectory()
        TestClusterRegistry.startWatchdog(for: directory)
        var lastError: any Error = TestPostgresError("no attempt made")
        for _ in 0..<5 {
            let port = try freeLoopbackPort()
            let server = EmbeddedPostgres(
                configuration: .init(
                    dataDirectory: directory, databaseName: "postgres", tcpPort: port, durable: false,
                    // Many suites run in parallel, each with its own pool.
                    // Lock waits over a second, statements over two and checkpoint timings go to the log, for
                    // `reportTrouble`.
                    settings: [
                        "max_connections": "300", "log_lock_waits": "on", "log_checkpoints": "on",
                        "log_min_duration_statement": "2000",
                    ],
                    stopsWithProcess: false, notice: { _ in }))
            do {
                try server.start()
                let cluster = TestCluster(directory: directory, port: port, server: server)
                TestClusterRegistry.remember(cluster)
                return cluster
            } catch let error as EmbeddedPostgresError where error.code == .startFailed {
                lastError = error  // Most likely the port was taken meanwhile: try another.
                try? server.stop()
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        TestClusterRegistry.stopWatching(directory)
        throw lastError
    }

    /// `mktemp -d`; as root also searchable by others, so the `postgres` user can reach the cluster inside.
    private static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/routereg-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TestPostgresError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        if geteuid() == 0 { chmod(path, 0o711) }
        return path
    }
}
