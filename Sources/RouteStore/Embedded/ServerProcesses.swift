import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What is known about the processes of one cluster, read from its lock files and /proc.
///
/// PostgreSQL refuses to start while `postmaster.pid` names a live process. After a crash that check can be
/// fooled: in containers the dead postmaster may linger as a zombie, or its PID may be reused by an unrelated
/// process. A process only counts as the cluster's server if it is alive, not a zombie, and works in the
/// cluster directory (every PostgreSQL process chdirs there).
struct ServerProcesses {
    /// The real path of the cluster directory.
    var clusterDirectory: String
    var socketDirectory: String
    var port: Int

    /// The postmaster PID recorded in `postmaster.pid`, if that file exists.
    func recordedPostmaster() -> pid_t? {
        Self.firstLinePID(of: "\(clusterDirectory)/postmaster.pid")
    }

    /// The PID of a live postmaster serving this cluster, if any.
    func runningPostmaster() -> pid_t? {
        guard let pid = recordedPostmaster(), isClusterProcess(pid) else { return nil }
        return pid
    }

    /// Live processes working in the cluster directory: a running server, or backends orphaned by a killed one.
    func processesUsingCluster() -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { isClusterProcess($0) }
    }

    /// Clears what a crashed server left behind so the next start is not refused: waits (up to `timeout`)
    /// for orphaned server processes to exit, then removes a `postmaster.pid` and socket lock file whose
    /// process is gone. Must only be called when `runningPostmaster()` is nil.
    func clearStaleLocks(timeout: TimeInterval = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var remaining = processesUsingCluster()
        while !remaining.isEmpty {
            guard Date() < deadline else {
                throw EmbeddedPostgresError(
                    .startFailed,
                    "processes \(remaining) of a previous server still use \(clusterDirectory); stop them first")
            }
            usleep(20_000)
            remaining = processesUsingCluster()
        }
        // No process uses the cluster any more, so any recorded PID is stale (dead, a zombie, or reused).
        let pidFile = "\(clusterDirectory)/postmaster.pid"
        if FileManager.default.fileExists(atPath: pidFile) {
            try FileManager.default.removeItem(atPath: pidFile)
        }
        let socket = "\(socketDirectory)/.s.PGSQL.\(port)"
        if let owner = Self.firstLinePID(of: "\(socket).lock"), !isClusterProcess(owner) {
            try? FileManager.default.removeItem(atPath: "\(socket).lock")
            try? FileManager.default.removeItem(atPath: socket)
        }
    }

    /// Whether `pid` is a live, non-zombie process whose working directory is the cluster.
    func isClusterProcess(_ pid: pid_t) -> Bool {
        guard pid > 0, Self.isAlive(pid) else { return false }
        guard FileManager.default.fileExists(atPath: "/proc/self/cwd") else {
            return true  // No /proc (not Linux): trust the signal check, as PostgreSQL itself does.
        }
        guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd") else {
            return false  // Gone meanwhile, or another user's process: not our server either way.
        }
        return cwd == clusterDirectory
    }

    /// Alive and not a zombie (a zombie still answers `kill(pid, 0)`, which is what misleads PostgreSQL).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return !FileManager.default.fileExists(atPath: "/proc/self/stat")
        }
        // "pid (comm) S …": the state follows the last parenthesis, since comm may contain spaces.
        guard let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    private static func firstLinePID(of path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let first = text.split(separator: "\n", maxSplits: 1).first ?? ""
        return pid_t(first.trimmingCharacters(in: .whitespaces))
    }
}
