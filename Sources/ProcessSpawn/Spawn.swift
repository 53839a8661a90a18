#if canImport(Glibc)
    import Glibc
#endif

/// A program to start: the project's one way to run child processes.
///
/// Built on `posix_spawn`, never Foundation's process type: in this toolchain its `run` method over-reads a
/// `dirent` on Linux and crashes the caller now and then, and `Process` learns that a child ended when an
/// inherited descriptor closes, so it hangs when the child leaves a daemon behind (`pg_ctl start`). Here the
/// child inherits stdin/stdout/stderr only, output goes to files (never a pipe read through a dispatch source:
/// closing one while its source is cancelled has crashed libdispatch on Linux), and the exit is learnt from
/// `waitpid`.
///
/// By default a child gets its own process group, so that one signal reaches everything it started, and
/// `ProcessReaper` kills that group if this process dies first (a crashed test leaves nothing running).
public struct Spawn: Sendable {
    /// Where one of the child's output streams goes.
    public enum Output: Sendable, Equatable {
        /// Discarded (`/dev/null`).
        case null
        /// This process's own stream.
        case inherit
        /// Appended to the file at this path (created if missing).
        case file(String)
        /// Kept in an anonymous temporary file and returned in `SpawnResult` (never fills up like a pipe).
        case capture
        /// Standard error only: into the same place as standard output, interleaved as written.
        case standardOutput
    }

    /// The program's path (absolute, or relative to the working directory; `PATH` is not searched).
    public var executable: String
    /// Its arguments, without the program name.
    public var arguments: [String]
    /// The child's whole environment; `nil` passes this process's environment on.
    public var environment: [String: String]?
    /// The child's working directory; `nil` keeps this process's.
    public var workingDirectory: String?
    public var standardOutput: Output
    public var standardError: Output
    /// Puts the child in a new process group of its own, so `SpawnedProcess.signal` reaches its children too.
    public var ownProcessGroup: Bool
    /// Registers the child's process group with `ProcessReaper`, which kills it if this process dies first.
    /// Needs `ownProcessGroup` (without it, only the child itself is registered).
    public var diesWithParent: Bool

    /// A program to run with `arguments`; output captured; own group; killed if this process dies.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, standardOutput: Output = .capture, standardError: Output = .capture,
        ownProcessGroup: Bool = true, diesWithParent: Bool = true
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.ownProcessGroup = ownProcessGroup
        self.diesWithParent = diesWithParent
    }

    /// Starts the program and returns at once.
    public func start() throws(SpawnError) -> SpawnedProcess {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        func descriptor(for output: Output) throws(SpawnError) -> Int32? {
            switch output {
            case .inherit, .standardOutput: return nil
            case .null: return try openOrThrow("/dev/null", O_WRONLY, what: "/dev/null")
            case .file(let path): return try openOrThrow(path, O_WRONLY | O_CREAT | O_APPEND, what: path)
            case .capture: return try Self.anonymousFile()
            }
        }
        func openOrThrow(_ path: String, _ flags: Int32, what: String) throws(SpawnError) -> Int32 {
            let fd = open(path, flags | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw SpawnError(.cannotStart, "cannot open \(what): \(Self.errnoText())") }
            return fd
        }

        let out = try descriptor(for: standardOutput)
        if let out { opened.append(out) }
        let err = standardError == .standardOutput ? nil : try descriptor(for: standardError)
        if let err { opened.append(err) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let out { posix_spawn_file_actions_adddup2(&actions, out, 1) }
        if let err { posix_spawn_file_actions_adddup2(&actions, err, 2) }
        if standardError == .standardOutput { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        Self.closeInheritedDescriptors(&actions)
        if let workingDirectory {
            guard let addChdir = GlibcSpawnExtensions.addChdir else {
                throw SpawnError(.cannotStart, "this C library cannot set a child's working directory")
            }
            _ = addChdir(&actions, workingDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals this process ignores or blocks (a test runner may do either) stay default in the child.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = self.environment ?? Self.currentEnvironment()
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        // Registered before the child can run, so no moment exists in which a crash here would orphan it.
        let result = ProcessReaper.whileSpawning(register: diesWithParent) {
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            return (result, result == 0 ? pid : nil)
        }
        guard result == 0 else {
            throw SpawnError(.cannotStart, "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        let captured = SpawnedProcess.Captured(
            standardOutput: standardOutput == .capture ? dup(out!) : nil,
            standardError: standardError == .capture ? dup(err!) : nil)
        return SpawnedProcess(
            pid: pid, group: ownProcessGroup ? pid : nil, registered: diesWithParent, captured: captured)
    }

    /// Runs the program to its end and returns how it ended and what it printed. With a `timeout`, a child
    /// still running then is killed (with its process group) and `SpawnError.timedOut` is thrown.
    public func run(timeout: Duration? = nil) throws(SpawnError) -> SpawnResult {
        let child = try start()
        guard let status = child.wait(timeout: timeout) else {
            child.kill()
            _ = child.wait(timeout: .seconds(10))
            throw SpawnError(.timedOut, "\(executable) still ran after \(timeout!): killed", output: child.result(0))
        }
        return child.result(status)
    }

    /// `run(timeout:)` for async callers: waits by polling with `Task.sleep`, never blocking a pool thread.
    public func run(timeout: Duration? = nil) async throws(SpawnError) -> SpawnResult {
        let child = try start()
        guard let status = await child.exit(timeout: timeout) else {
            child.kill()
            _ = await child.exit(timeout: .seconds(10))
            throw SpawnError(.timedOut, "\(executable) still ran after \(timeout!): killed", output: child.result(0))
        }
        return child.result(status)
    }

    /// An unlinked temporary file: nothing is left behind even if this process is killed.
    private static func anonymousFile() throws(SpawnError) -> Int32 {
        var template = Array("/tmp/routereg-spawn-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SpawnError(.cannotStart, "cannot create a temporary file: \(errnoText())") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom = GlibcSpawnExtensions.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            // Older C libraries: close what is open now (a descriptor opened meanwhile could still leak).
            for descriptor in 3..<min(getdtablesize(), 65_536) where fcntl(descriptor, F_GETFD) != -1 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
    }

    /// This process's environment, read from `environ` (Foundation is not needed for it).
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// glibc's `_np` spawn extensions (2.29+, 2.34+), which its Swift module map does not expose; looked up at
/// run time so a C library without them still works.
enum GlibcSpawnExtensions {
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
