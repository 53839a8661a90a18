import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Every cluster this process started and has not stopped, so one call at shutdown stops them all.
private let runningClusters = Mutex<[ObjectIdentifier: EmbeddedPostgres]>([:])
private let exitHookInstalled = Mutex(false)

extension EmbeddedPostgres {
    /// Stops every cluster this process started and has not stopped yet, ignoring individual failures
    /// (shutdown should proceed). Safe to call from a signal-handling dispatch source or an `atexit` hook.
    public static func stopAllRunning() {
        let clusters = runningClusters.withLock { Array($0.values) }
        for cluster in clusters {
            try? cluster.stop()
        }
    }

    /// Arranges for `stopAllRunning()` to run when the process exits normally (`exit()` or returning from main).
    /// Installing it more than once has no further effect. Signals still need a handler that exits.
    public static func stopAllRunningAtExit() {
        let install = exitHookInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if install {
            atexit { EmbeddedPostgres.stopAllRunning() }
        }
    }

    static func registerRunning(_ cluster: EmbeddedPostgres) {
        runningClusters.withLock { $0[ObjectIdentifier(cluster)] = cluster }
    }

    static func unregisterRunning(_ cluster: EmbeddedPostgres) {
        runningClusters.withLock { $0[ObjectIdentifier(cluster)] = nil }
    }
}
