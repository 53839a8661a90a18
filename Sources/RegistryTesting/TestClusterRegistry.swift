import Foundation
import RouteStore
import Synchronization

/// Every test cluster this process created and has not destroyed, so that none outlives the process:
/// an `atexit` hook destroys them on a normal exit, and a watchdog (a detached shell that polls this
/// process) kills and deletes each one if the process dies without exiting (a crash, SIGKILL).
enum TestClusterRegistry {
    private static let clusters = Mutex<[ObjectIdentifier: TestCluster]>([:])
    private static let hookInstalled = Mutex(false)

    static func remember(_ cluster: TestCluster) {
        clusters.withLock { $0[ObjectIdentifier(cluster)] = cluster }
        let install = hookInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if install { atexit { TestClusterRegistry.destroyAll() } }
    }

    static func forget(_ cluster: TestCluster) {
        clusters.withLock { $0[ObjectIdentifier(cluster)] = nil }
    }

    static func destroyAll() {
        for cluster in clusters.withLock({ Array($0.values) }) {
            cluster.destroy()
        }
    }

    /// Starts a watchdog for `directory` before anything is created in it, so even a crash during initdb is
    /// cleaned up. `setsid -f` detaches it from our process group (Ctrl-C on `swift test` must not kill it
    /// first) and returns at once. Once this process is gone it kills every process still working in the
    /// directory (the server and its backends) and deletes it. Best effort: the `atexit` hook covers normal
    /// exits anyway.
    static func startWatchdog(for directory: String) {
        let script = """
            exec >/dev/null 2>&1
            while kill -0 \(getpid()); do sleep 1; done
            [ -d \(quote(directory)) ] || exit 0
            for p in /proc/[0-9]*; do
              case "$(readlink "$p/cwd")" in \(quote(directory))/*) kill -9 "${p#/proc/}";; esac
            done
            sleep 1
            rm -rf \(quote(directory))
            """
        _ = try? ChildProcess(executable: "/usr/bin/setsid", arguments: ["-f", "/bin/sh", "-c", script]).run()
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
