import Foundation
import RouteStore

#if canImport(Glibc)
    import Glibc
#endif

/// A primary and a streaming hot standby on 127.0.0.1, for failover tests: the primary is a private
/// `TestCluster`, the standby a `pg_basebackup -R` copy of it started on another free port. Asynchronous
/// replication (PostgreSQL's default), so a test can lose an acknowledged write by cutting the stream first.
///
/// As root, the tools run as `postgres` (through `runuser`, like the embedded cluster). `destroy()` stops both
/// and deletes their files; the standby lives inside the primary's directory, so a forgotten one goes with it.
public final class ReplicatedPostgres: Sendable {
    /// The primary (until `promoteStandby()`; then the old primary, usually killed).
    public let primary: TestCluster
    /// The standby's TCP port.
    public let standbyPort: Int
    private let standbyDirectory: String
    private let socketDirectory: String
    private let binaries: PostgresBinaries
    private let user: String?

    /// Starts a primary, creates `database` on it, and starts a hot standby streaming from it.
    public init(database: String) throws {
        let primary = try TestPostgres.privateCluster()
        let binaries: PostgresBinaries
        let user = geteuid() == 0 ? "postgres" : nil
        let standbyDirectory = primary.directory + "/standby"
        let socketDirectory = primary.directory + "/standby-socket"
        do {
            binaries = try PostgresBinaries.locate()
            try PostgresServerAdmin(url: primary.url).createDatabase(database)
            for (path, mode) in [(standbyDirectory, 0o700), (socketDirectory, 0o755)] {
                guard mkdir(path, mode_t(mode)) == 0 else { throw TestPostgresError("cannot create \(path)") }
                if let user, let account = getpwnam(user) {
                    chown(path, account.pointee.pw_uid, account.pointee.pw_gid)
                }
            }
            try Self.run(
                binaries, user, "pg_basebackup",
                [
                    "-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", standbyDirectory, "-R",
                    "-X", "stream", "-c", "fast",
                ])
            standbyPort = try freeLoopbackPort()
        } catch {
            primary.destroy()
            throw error
        }
        self.primary = primary
        self.binaries = binaries
        self.user = user
        self.standbyDirectory = standbyDirectory
        self.socketDirectory = socketDirectory
        do { try startStandby() } catch {
            primary.destroy()
            throw error
        }
    }

    /// A URL for `database` on the primary only.
    public func primaryURL(_ database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(primary.port)/\(database)"
    }

    /// A URL for `database` on the standby only (a read replica's).
    public func standbyURL(_ database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(standbyPort)/\(database)"
    }

    /// The multi-host URL a fleet uses: whichever of the two accepts writes.
    public func failoverURL(_ database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standbyPort)/\(database)"
            + "?target_session_attrs=read-write"
    }

    /// Stops the standby's WAL receiver (empty `primary_conninfo`): writes acknowledged on the primary from
    /// now on are not replicated, so a failover loses them, as asynchronous replication can.
    public func cutReplication() throws {
        let standby = PostgresServerAdmin(url: "postgresql://postgres@127.0.0.1:\(standbyPort)/postgres")
        try standby.clearPrimaryConnection()
        // The receiver exits on the reload; wait until the standby says it no longer streams.
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try standby.walReceiverCount() == 0 { return }
            usleep(50_000)
        }
        throw TestPostgresError("the standby kept streaming after primary_conninfo was cleared")
    }

    /// Waits until the standby has replayed everything the primary has written so far.
    public func waitForStandbyToCatchUp(timeout: Duration = .seconds(10)) throws {
        let target = try PostgresServerAdmin(url: primary.url).currentWALPosition()
        let standby = PostgresServerAdmin(url: "postgresql://postgres@127.0.0.1:\(standbyPort)/postgres")
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try standby.hasReplayed(upTo: target) { return }
            usleep(20_000)
        }
        throw TestPostgresError("the standby did not catch up within \(timeout)")
    }

    /// Kills the primary's postmaster and every one of its processes with SIGKILL (a host dying).
    public func killPrimary() throws {
        let processes = try primaryProcesses()
        for pid in processes { kill(pid, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(10)
        while primary.postmasterPID != nil {
            guard ContinuousClock.now < deadline else { throw TestPostgresError("the primary did not die") }
            usleep(10_000)
        }
    }

    /// Sends `signal` (SIGSTOP, SIGCONT) to the primary's postmaster and all of its processes: SIGSTOP is a hung
    /// host whose kernel still accepts connections and acknowledges packets.
    public func signalPrimary(_ signal: Int32) throws {
        for pid in try primaryProcesses() { kill(pid, signal) }
    }

    /// Promotes the standby (`pg_ctl promote`), waiting until it accepts writes.
    public func promoteStandby() throws {
        try run("pg_ctl", ["-D", standbyDirectory, "-w", "-t", "30", "promote"])
    }

    /// Stops both servers and deletes their files.
    public func destroy() {
        _ = try? run("pg_ctl", ["-D", standbyDirectory, "-m", "immediate", "-w", "stop"])
        if let processes = try? primaryProcesses() { for pid in processes { kill(pid, SIGCONT) } }
        primary.destroy()
    }

    private func startStandby() throws {
        let options = [
            "-p", String(standbyPort), "-k", socketDirectory, "-c", "listen_addresses=127.0.0.1",
            // A hot standby needs at least the primary's max_connections (the test clusters use 300).
            "-c", "hot_standby=on", "-c", "fsync=off", "-c", "max_connections=300",
        ].joined(separator: " ")
        let log = socketDirectory + "/standby.log"
        do {
            try run("pg_ctl", ["-D", standbyDirectory, "-o", options, "-l", log, "-w", "-t", "60", "start"])
        } catch {
            let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(1500)
            throw TestPostgresError("the standby did not start: \(error)\n\(tail)")
        }
    }

    /// The postmaster and its children.
    private func primaryProcesses() throws -> [pid_t] {
        guard let postmaster = primary.postmasterPID else { return [] }
        var pids = [postmaster]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, Int32(fields[1]) == postmaster { pids.append(pid) }
        }
        return pids
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        try Self.run(binaries, user, tool, arguments)
    }

    @discardableResult
    private static func run(
        _ binaries: PostgresBinaries, _ user: String?, _ tool: String, _ arguments: [String]
    ) throws -> String {
        try ChildProcess(executable: binaries.path(tool), arguments: arguments, user: user).check(tool)
    }
}
