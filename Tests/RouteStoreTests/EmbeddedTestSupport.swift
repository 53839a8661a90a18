import Foundation
import ProcessSpawn
import RouteStore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers shared by the embedded-cluster tests: scratch directories and a `psql` runner, so the tests check
/// the cluster the way an outside client sees it.
enum EmbeddedTestSupport {
    /// A fresh directory under /tmp; as root, searchable by the `postgres` user like a normal checkout.
    static func scratchDirectory(mode: mode_t = 0o711) throws -> String {
        var template = Array("/tmp/embedded-test-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let path = String(cString: made)
        chmod(path, mode)
        return path
    }

    /// A cluster configured for speed (tests do not need durability), with notices collected.
    ///
    /// Left out of `EmbeddedPostgres.stopAllRunning()` unless `stopsWithProcess` says otherwise: that call
    /// reaches every registered cluster in the process, and the suites run in parallel, so one test calling
    /// it would stop the clusters other tests are using at that moment.
    static func cluster(
        at dataDirectory: String, notices: NoticeLog? = nil, stopsWithProcess: Bool = false
    ) -> EmbeddedPostgres {
        EmbeddedPostgres(
            configuration: .init(
                dataDirectory: dataDirectory, durable: false, stopsWithProcess: stopsWithProcess,
                notice: { notices?.append($0) }))
    }

    /// Runs `psql` against `uri` and returns its unaligned, tuples-only output; throws with stderr on failure.
    @discardableResult
    static func psql(_ uri: String, _ sql: String) throws -> String {
        let binaries = try PostgresBinaries.locate()
        let result = try Spawn(
            binaries.path("psql"), ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", sql]
        )
        .run(timeout: .seconds(120))
        guard result.succeeded else { throw PSQLFailure(message: result.standardError) }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct PSQLFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "psql failed: \(message)" }
    }

    /// Stops and destroys the cluster (wherever it was placed) and removes the scratch directory; for `defer`.
    static func discard(_ cluster: EmbeddedPostgres, directory: String) {
        try? cluster.destroy()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Collects the notes a cluster prints for the operator, so tests can assert on them.
final class NoticeLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
