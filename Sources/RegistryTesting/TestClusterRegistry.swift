import Foundation
import ProcessSpawn
import RouteStore
import Synchronization

/// Every test cluster this process created and has not destroyed, so that none outlives the process:
/// an `atexit` hook destroys them on a normal exit, and `ProcessReaper`'s watchdog kills and deletes each one
/// if the process dies without exiting (a crash, SIGKILL).
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

    /// Hands `directory` to `ProcessReaper` before anything is created in it, so even a crash during initdb is
    /// cleaned up: once this process is gone, every process still working in the directory (the server and
    /// its backends, which run in a session of their own) is killed and the directory deleted. The `atexit`
    /// hook above covers normal exits.
    static func startWatchdog(for directory: String) {
        ProcessReaper.watch(directory: directory, remove: true)
    }

    /// The cluster is gone: nothing is left to reap there.
    static func stopWatching(_ directory: String) {
        ProcessReaper.forget(directory: directory)
    }
}
