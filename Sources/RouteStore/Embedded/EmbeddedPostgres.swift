import Foundation
import Synchronization

/// A private PostgreSQL cluster under a data directory, created on first start and reused afterwards.
///
/// This is what lets `routereg serve` run with no database to set up: the cluster lives in
/// `<dataDirectory>/pgdata`, listens only on a Unix socket in a directory only its owner can enter (plus
/// 127.0.0.1 when a TCP port is asked for), logs to `<dataDirectory>/postgres.log`, and uses trust
/// authentication, which is safe because nobody else can reach that socket. As root, the server runs as the
/// `postgres` system user (PostgreSQL refuses root); see `ClusterLayout` for where files go then.
/// A previous run that crashed (stale `postmaster.pid`, orphaned or zombie processes) does not block `start()`;
/// a server a killed previous run left running is adopted.
///
/// All methods block (they run `initdb` and `pg_ctl`) and are thread-safe; `stop()` is idempotent and may be
/// called from a signal-handling dispatch source while another thread uses the cluster.
public final class EmbeddedPostgres: Sendable {
    /// How and where to run the cluster.
    public struct Configuration: Sendable {
        /// The directory holding the cluster, its socket and its log; created if missing.
        public var dataDirectory: String
        /// The database `start()` creates if missing and whose URI it returns.
        public var databaseName: String
        /// When set, the server also listens on 127.0.0.1 on this port (debugging, tests); the socket then
        /// carries the same port number. When nil, no TCP at all.
        public var tcpPort: Int?
        /// False trades crash safety for speed (no fsync): for throwaway test clusters only.
        public var durable: Bool
        /// The server programs to use; nil finds the installed ones (`PostgresBinaries.locate()`).
        public var binaries: PostgresBinaries?
        /// Extra server settings (`max_connections`, `log_statement`…), passed as `-c name=value` at start.
        public var settings: [String: String]
        /// Whether `EmbeddedPostgres.stopAllRunning()` stops this cluster; false for owners that clean up
        /// themselves (the test harness, whose clusters other tests are still using).
        public var stopsWithProcess: Bool
        /// Receives one-line notes for the operator (cluster relocated, leftover server adopted).
        public var notice: @Sendable (String) -> Void

        /// The defaults: `./.routereg`, database `routereg`, socket only, durable, notes to stderr.
        public init(
            dataDirectory: String = ".routereg", databaseName: String = "routereg", tcpPort: Int? = nil,
            durable: Bool = true, binaries: PostgresBinaries? = nil, settings: [String: String] = [:],
            stopsWithProcess: Bool = true,
            notice: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        ) {
            self.dataDirectory = dataDirectory
            self.databaseName = databaseName
            self.tcpPort = tcpPort
            self.durable = durable
            self.binaries = binaries
            self.settings = settings
            self.stopsWithProcess = stopsWithProcess
            self.notice = notice
        }
    }

    /// The port number when no TCP port is configured: it only names the socket file (`.s.PGSQL.5432`).
    public static let defaultSocketPort = 5432

    /// The settings this cluster was created with.
    public let configuration: Configuration
    private let state = Mutex<State>(State())

    private struct State {
        var layout: ClusterLayout?
        var binaries: PostgresBinaries?
        var started = false
    }

    /// A cluster configured by `configuration`; nothing happens on disk until `start()`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A cluster under `dataDirectory` with the other defaults.
    public convenience init(dataDirectory: String) {
        self.init(configuration: Configuration(dataDirectory: dataDirectory))
    }

    /// The port the server uses (the TCP port, or the number naming the socket file).
    public var port: Int { configuration.tcpPort ?? Self.defaultSocketPort }

    /// Creates the cluster if needed, starts it (waiting until it accepts connections), creates the
    /// database if missing, and returns a libpq URI for it over the Unix socket.
    @discardableResult
    public func start() throws -> String {
        try state.withLock { state in
            let binaries = try state.binaries ?? configuration.binaries ?? PostgresBinaries.locate()
            state.binaries = binaries
            // Prepared on every start, not cached: directories under /tmp may have been cleaned meanwhile.
            let layout = try ClusterLayout.prepare(
                dataDirectory: configuration.dataDirectory, port: port, notice: configuration.notice)
            state.layout = layout
            try initializeIfNeeded(layout, binaries: binaries)
            try launch(layout, binaries: binaries, restarting: state.started)
            state.started = true
            if configuration.stopsWithProcess { EmbeddedPostgres.registerRunning(self) }
            let admin = PostgresServerAdmin(url: Self.uri(layout, port: port, database: "postgres"))
            if try !admin.databaseExists(configuration.databaseName) {
                try admin.createDatabase(configuration.databaseName)
            }
            return Self.uri(layout, port: port, database: configuration.databaseName)
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`: open sessions are cut, the data is flushed). Does nothing if
    /// this instance never started it or it is already down, so repeated and concurrent calls are safe.
    public func stop() throws {
        try state.withLock { state in
            defer { EmbeddedPostgres.unregisterRunning(self) }
            guard let layout = state.layout, let binaries = state.binaries else { return }
            state.started = false
            guard Self.processes(layout, port: port).runningPostmaster() != nil else { return }
            try ChildProcess(
                executable: binaries.path("pg_ctl"),
                arguments: ["-D", layout.clusterDirectory, "-m", "fast", "-w", "-t", "60", "stop"],
                user: layout.serverAccount?.name
            ).check("pg_ctl stop")
        }
    }

    /// Stops the server and deletes the cluster: its files (in place, or relocated under /var/tmp), socket
    /// directory, log and the links to them. Other files in the data directory (a snapshot, a token) stay.
    /// For tests and for starting over; the data is gone for good.
    public func destroy() throws {
        try stop()
        try state.withLock { state in
            let layout =
                try state.layout
                ?? ClusterLayout.prepare(
                    dataDirectory: configuration.dataDirectory, port: port, notice: { _ in })
            let data = layout.dataDirectory
            let relocated = !layout.clusterDirectory.hasPrefix(data + "/")
            var doomed = [layout.clusterDirectory, layout.socketDirectory, layout.logFile]
            doomed += ["\(data)/pgdata", "\(data)/postgres.log", "\(data)/socket"]
            if relocated, layout.clusterDirectory.hasPrefix("/var/tmp/routereg-") {
                doomed.append((layout.clusterDirectory as NSString).deletingLastPathComponent)
            }
            for path in doomed {
                let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
                if isLink || FileManager.default.fileExists(atPath: path) {
                    try FileManager.default.removeItem(atPath: path)
                }
            }
            state.layout = nil
        }
    }

    /// Whether the server process of this cluster is alive right now (false after a crash, too).
    public var isRunning: Bool {
        state.withLock { state in
            guard let layout = state.layout else { return false }
            return Self.processes(layout, port: port).runningPostmaster() != nil
        }
    }

    /// The postmaster's process id while it runs: what a crash test kills.
    public var postmasterPID: Int32? {
        state.withLock { state in state.layout.flatMap { Self.processes($0, port: port).runningPostmaster() } }
    }

    /// A libpq URI for `database` over the Unix socket; nil before the first `start()`.
    public func connectionURI(database: String? = nil) -> String? {
        state.withLock { state in
            state.layout.map { Self.uri($0, port: port, database: database ?? configuration.databaseName) }
        }
    }

    /// The directory the server's files live in (after `start()`), which may be relocated: see `ClusterLayout`.
    public var clusterDirectory: String? { state.withLock { $0.layout?.clusterDirectory } }

    /// The directory holding the server's Unix socket (after `start()`).
    public var socketDirectory: String? { state.withLock { $0.layout?.socketDirectory } }

    // MARK: - Steps of start()

    private func initializeIfNeeded(_ layout: ClusterLayout, binaries: PostgresBinaries) throws {
        let versionFile = "\(layout.clusterDirectory)/PG_VERSION"
        if let text = try? String(contentsOfFile: versionFile, encoding: .utf8) {
            let onDisk = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let installed = try binaries.majorVersion()
            guard onDisk == installed else {
                throw EmbeddedPostgresError(
                    .versionMismatch,
                    "the cluster in \(layout.clusterDirectory) was made by PostgreSQL \(onDisk) but "
                        + "\(installed) is installed; upgrade it with pg_upgrade or remove it")
            }
            return
        }
        // No PG_VERSION: a fresh directory, or the remains of an initdb that died; initdb needs it empty.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: layout.clusterDirectory)) ?? [] {
            try FileManager.default.removeItem(atPath: "\(layout.clusterDirectory)/\(entry)")
        }
        var arguments = [
            "-D", layout.clusterDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
        ]
        if !configuration.durable { arguments.append("--no-sync") }
        try ChildProcess(executable: binaries.path("initdb"), arguments: arguments, user: layout.serverAccount?.name)
            .check("initdb")
    }

    /// `restarting`: this instance started the server before, so a running one is simply still ours.
    private func launch(_ layout: ClusterLayout, binaries: PostgresBinaries, restarting: Bool) throws {
        let processes = Self.processes(layout, port: port)
        if let pid = processes.runningPostmaster() {
            let admin = PostgresServerAdmin(url: Self.uri(layout, port: port, database: "postgres"))
            if admin.waitWhileStarting(timeout: 60) {
                if restarting { return }
                configuration.notice("embedded PostgreSQL: reusing the server (PID \(pid)) a previous run left running")
                return
            }
            // Running, but not where we expect it (other socket or port): restart it with our settings.
            try ChildProcess(
                executable: binaries.path("pg_ctl"),
                arguments: ["-D", layout.clusterDirectory, "-m", "fast", "-w", "stop"],
                user: layout.serverAccount?.name
            ).check("pg_ctl stop of a leftover server")
        }
        try processes.clearStaleLocks()
        let outcome = try ChildProcess(
            executable: binaries.path("pg_ctl"),
            arguments: [
                "-D", layout.clusterDirectory, "-l", layout.logFile, "-w", "-t", "60", "-o", serverOptions(layout),
                "start",
            ],
            user: layout.serverAccount?.name
        ).run()
        guard outcome.succeeded else {
            throw EmbeddedPostgresError(
                .startFailed,
                "the server did not start (\(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))); "
                    + "end of \(layout.logFile):\n\(Self.tail(of: layout.logFile, lines: 8))")
        }
    }

    /// Options for the `postgres` command line; pg_ctl hands them to a shell, hence the quoting.
    private func serverOptions(_ layout: ClusterLayout) -> String {
        var options = [
            "-p", String(port), "-k", Self.shellQuote(layout.socketDirectory),
            "-c", "listen_addresses=\(configuration.tcpPort == nil ? "''" : "127.0.0.1")",
        ]
        if !configuration.durable {
            // Not synchronous_commit=off: crash tests need a committed row to survive a killed server.
            options += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        }
        for (name, value) in configuration.settings.sorted(by: { $0.key < $1.key }) {
            options += ["-c", Self.shellQuote("\(name)=\(value)")]
        }
        return options.joined(separator: " ")
    }

    // MARK: - Helpers

    private static func processes(_ layout: ClusterLayout, port: Int) -> ServerProcesses {
        ServerProcesses(clusterDirectory: layout.clusterDirectory, socketDirectory: layout.socketDirectory, port: port)
    }

    static func uri(_ layout: ClusterLayout, port: Int, database: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        let host = layout.socketDirectory.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let name = database.addingPercentEncoding(withAllowedCharacters: allowed.subtracting(["/"])) ?? ""
        return "postgresql://postgres@/\(name)?host=\(host)&port=\(port)"
    }

    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func tail(of path: String, lines: Int) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
