import Foundation
import ProcessSpawn

/// Runs a PostgreSQL tool (initdb, pg_ctl, runuser, psql) to completion and keeps what it printed.
///
/// A thin layer over `Spawn` (the project's one posix_spawn helper) that adds what PostgreSQL's tools need: a
/// run as the server's system user through `runuser` when we are root, an environment without libpq/server
/// variables, English messages, and `/` as working directory (the server user may not be able to enter the
/// caller's, e.g. /root). stdout and stderr go to one anonymous file: a pipe inherited by the daemon
/// `pg_ctl start` leaves behind would never reach end-of-file.
/// The tools run in our own process group and are not reaped on our death: `pg_ctl start` returns while the
/// server it started runs on in a session of its own, which `EmbeddedPostgres` stops itself.
package struct ChildProcess {
    /// What the program printed (stdout and stderr interleaved) and how it ended.
    package struct Outcome {
        /// The exit status, or 128 + the signal that killed it.
        package var status: Int32
        /// Everything the program wrote to stdout and stderr.
        package var output: String
        package var succeeded: Bool { status == 0 }
    }

    /// The program's absolute path.
    package var executable: String
    /// Its arguments (without the program name).
    package var arguments: [String]
    /// When set (only as root), the program runs as this system user through `runuser`.
    package var user: String?

    /// A program to run; `user` only as root.
    package init(executable: String, arguments: [String], user: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.user = user
    }

    /// Starts the program, waits for it, and returns its status and output. Throws only when it cannot start.
    package func run() throws -> Outcome {
        let command = user.map { ["-u", $0, "--", executable] + arguments } ?? arguments
        let program = user == nil ? executable : try Self.runuserPath()
        let spawn = Spawn(
            program, command, environment: Self.childEnvironment(), workingDirectory: "/",
            standardOutput: .capture, standardError: .standardOutput, ownProcessGroup: false,
            diesWithParent: false)
        do {
            let result = try spawn.run()
            return Outcome(status: result.status, output: result.output)
        } catch {
            throw EmbeddedPostgresError(.processFailed, error.message)
        }
    }

    /// Runs the program and throws with its output when it fails; `what` names the step for the message.
    @discardableResult
    package func check(_ what: String) throws -> String {
        let outcome = try run()
        guard outcome.succeeded else {
            throw EmbeddedPostgresError(
                .processFailed,
                "\(what) failed (exit \(outcome.status)): \(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return outcome.output
    }

    /// The caller's environment without libpq/server variables (PGDATA, PGPORT, PGHOST…) that would point the
    /// tools at some other cluster, and with English messages so errors read the same everywhere.
    static func childEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["LC_MESSAGES"] = "C"
        environment.removeValue(forKey: "LC_ALL")
        return environment
    }

    static func runuserPath() throws -> String {
        for candidate in ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw EmbeddedPostgresError(
            .serverUserUnavailable, "running as root needs `runuser` (util-linux) to start PostgreSQL as another user")
    }
}
