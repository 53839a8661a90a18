import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a helper program (initdb, pg_ctl, runuser) to completion and keeps what it printed.
///
/// Spawned with `posix_spawn` and waited for with `waitpid`, not with Foundation's `Process`: on Linux,
/// `Process` learns that a child ended when a socket the child inherited closes, and `pg_ctl start` passes
/// that socket on to the server it leaves running, so `waitUntilExit()` would hang for the server's lifetime.
/// Here every descriptor but stdin/stdout/stderr is closed in the child, and output goes to a temporary file
/// (a pipe inherited by the daemon would never reach end-of-file either).
/// `package`: the test harness (RegistryTesting) starts its watchdog with it, for the same reason.
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
        let capturePath = FileManager.default.temporaryDirectory
            .appendingPathComponent("routereg-\(UUID().uuidString).out").path
        let capture = open(capturePath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard capture >= 0 else {
            throw EmbeddedPostgresError(.processFailed, "cannot create a temporary file in \(capturePath)")
        }
        // Unlinked at once: nothing is left behind even if this process is killed meanwhile.
        unlink(capturePath)
        let reader = FileHandle(fileDescriptor: capture, closeOnDealloc: true)

        let command = user.map { ["-u", $0, "--", executable] + arguments } ?? arguments
        let program = user == nil ? executable : try Self.runuserPath()
        let pid = try Self.spawn(program, arguments: command, output: capture)
        let status = Self.wait(for: pid)
        lseek(capture, 0, SEEK_SET)
        let data = (try? reader.readToEnd()) ?? nil
        return Outcome(status: status, output: String(decoding: data ?? Data(), as: UTF8.self))
    }

    private static func spawn(_ program: String, arguments: [String], output: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        if let closeFrom = GlibcExtensions.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            // Older C libraries: close what is open now (a descriptor opened meanwhile could still leak).
            for descriptor in 3..<min(getdtablesize(), 65_536) where fcntl(descriptor, F_GETFD) != -1 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
        // The server user may not be able to enter the caller's directory (e.g. /root).
        _ = GlibcExtensions.addChdir?(&actions, "/")

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = childEnvironment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard result == 0 else {
            throw EmbeddedPostgresError(
                .processFailed, "cannot run \(program): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Blocks the calling thread until `pid` ends (retrying when a signal interrupts the wait).
    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return 127 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
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

/// glibc's `_np` spawn extensions (2.29+, 2.34+), which its Swift module map does not expose; looked up at
/// run time so a C library without them still works (with the fallbacks above).
private enum GlibcExtensions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
