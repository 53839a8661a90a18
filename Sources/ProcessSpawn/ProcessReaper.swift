import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Makes sure nothing this process started outlives it, however it dies.
///
/// An `atexit` hook covers normal exits. For the rest (SIGKILL, SIGSEGV, an abort in a test) a watchdog, a
/// small shell started once per process with `setsid -f` (so Ctrl-C on our group does not kill it first),
/// polls for this process's death and then kills every registered process group and every process working
/// inside a registered directory (a PostgreSQL server daemonizes into a session of its own, so no group kill
/// reaches it: its working directory is its data directory), and deletes the directories registered for
/// removal. The registrations live in a file the watchdog reads only after we are gone.
///
/// `prctl(PR_SET_PDEATHSIG)` was not used: it fires when the *thread* that spawned the child exits, and the
/// threads of Swift's cooperative pool come and go, so children would be killed at random.
public enum ProcessReaper {
    private struct State {
        var groups: Set<Int32> = []
        var directories: [String: Bool] = [:]  // path → delete it too
        var file: String?
        var started = false
    }

    private static let state = Mutex(State())

    /// Kills `group` (a process group id) if this process dies before `forget(group:)`.
    public static func watch(group: Int32) {
        _ = update { $0.groups.insert(group) }
    }

    /// Stops watching `group` (it has ended).
    public static func forget(group: Int32) {
        _ = update { $0.groups.remove(group) }
    }

    /// Kills every process working inside `directory` if this process dies first; with `remove`, then
    /// deletes the directory.
    public static func watch(directory: String, remove: Bool) {
        update { $0.directories[directory] = remove }
    }

    /// Stops watching `directory`.
    public static func forget(directory: String) {
        update { $0.directories[directory] = nil }
    }

    /// Runs `spawn` with the registry locked, registering the child it returns before anything else can
    /// happen in this process, so a crash cannot fall between the spawn and the registration.
    static func whileSpawning(register: Bool, _ spawn: () -> (Int32, pid_t?)) -> Int32 {
        guard register else { return spawn().0 }
        return update { state in
            let (result, pid) = spawn()
            if let pid { state.groups.insert(pid) }
            return result
        }
    }

    /// Kills every registered group now (the `atexit` path and tests).
    public static func killAll() {
        for group in state.withLock({ $0.groups }) { _ = kill(-group, SIGKILL) }
    }

    private static func update<T>(_ change: (inout State) -> T) -> T {
        state.withLock { state in
            let result = change(&state)
            if !state.started {
                state.started = true
                state.file = startWatchdog()
                atexit { ProcessReaper.killAll() }
            }
            if let file = state.file { save(state, to: file) }
            return result
        }
    }

    /// One line per registration: `group N`, `dir PATH`, `remove PATH`. Written to a new file and renamed
    /// over the old one, so the watchdog never reads half of it.
    private static func save(_ state: State, to file: String) {
        var text = state.groups.map { "group \($0)\n" }.joined()
        for (directory, remove) in state.directories where !directory.contains("\n") {
            text += "dir \(directory)\n"
            if remove { text += "remove \(directory)\n" }
        }
        let temporary = file + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        close(fd)
        rename(temporary, file)
    }

    /// Starts the watchdog and returns the registry file's path (nil if it could not start).
    private static func startWatchdog() -> String? {
        let me = getpid()
        let file = "/tmp/routereg-reaper-\(me)-\(UInt32.random(in: 0...UInt32.max))"
        let script = """
            exec >/dev/null 2>&1
            f=\(quote(file))
            alive() { [ -e /proc/\(me)/status ] && ! grep -qs '^State:[[:space:]]*Z' /proc/\(me)/status; }
            while alive; do sleep 0.2; done
            [ -f "$f" ] || exit 0
            while read -r kind arg; do
              case "$kind" in
                group) kill -9 "-$arg" ;;
                dir) for p in /proc/[0-9]*; do
                       case "$(readlink "$p/cwd")" in "$arg"|"$arg"/*) kill -9 "${p#/proc/}" ;; esac
                     done ;;
              esac
            done < "$f"
            sleep 1
            while read -r kind arg; do [ "$kind" = remove ] && rm -rf -- "$arg"; done < "$f"
            rm -f "$f" "$f.new"
            """
        // Not registered itself (it must outlive us) and in a session of its own.
        let watchdog = Spawn(
            "/usr/bin/setsid", ["-f", "/bin/sh", "-c", script], standardOutput: .null, standardError: .null,
            ownProcessGroup: false, diesWithParent: false)
        guard let child = try? watchdog.start() else { return nil }
        _ = child.wait(timeout: .seconds(10))  // `setsid -f` returns once the shell is forked off.
        return file
    }

    private static func quote(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
