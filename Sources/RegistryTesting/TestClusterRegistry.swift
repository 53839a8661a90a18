import Foundation
import Synchronization

/// Every test cluster this process created and has not destroyed, so that none outlives the process:
/// an `atexit` hook destroys them on a normal exit, and a watchdog (a detached shell that polls this
/// process) stops and deletes each one if the process dies without exiting (a crash, SIGKILL).
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
        startWatchdog(for: cluster)
    }

    static func forget(_ cluster: TestCluster) {
        clusters.withLock { $0[ObjectIdentifier(cluster)] = nil }
    }

    static func destroyAll() {
        for cluster in clusters.withLock({ Array($0.values) }) {
            cluster.destroy()
        }
    }

    /// `setsid` keeps the watchdog out of our process group, so Ctrl-C on `swift test` doesn't kill it first.
    /// It kills every process still working in the cluster's directory (the server and its backends), then
    /// deletes the directory. Best effort: if it cannot start, the `atexit` hook still covers normal exits.
    private static func startWatchdog(for cluster: TestCluster) {
        let directory = cluster.directory
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            [ -d \(quote(directory)) ] || exit 0
            for p in /proc/[0-9]*; do
              case "$(readlink "$p/cwd" 2>/dev/null)" in \(quote(directory))/*) kill -9 "${p#/proc/}" 2>/dev/null;; esac
            done
            sleep 1
            rm -rf \(quote(directory))
            """
        let process = Process()
        let setsid = "/usr/bin/setsid"
        if FileManager.default.isExecutableFile(atPath: setsid) {
            process.executableURL = URL(fileURLWithPath: setsid)
            process.arguments = ["/bin/sh", "-c", script]
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
