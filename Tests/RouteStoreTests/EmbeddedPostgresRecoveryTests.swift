import Foundation
import ProcessSpawn
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a crashed previous run leaves behind must never block the next start.
@Suite(.serialized)
struct EmbeddedPostgresRecoveryTests {
    @Test func startAfterThePostmasterWasKilledWithSIGKILL() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        let uri = try cluster.start()
        try EmbeddedTestSupport.psql(uri, "CREATE TABLE before_crash (id int); INSERT INTO before_crash VALUES (7)")

        let pidFile = "\(try #require(cluster.clusterDirectory))/postmaster.pid"
        let pid = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).prefix(while: \.isNumber)))
        #expect(kill(pid, SIGKILL) == 0)
        try waitUntil { !cluster.isRunning }
        #expect(FileManager.default.fileExists(atPath: pidFile))  // The crash left its lock file.

        let again = EmbeddedTestSupport.cluster(at: directory)
        defer { try? again.stop() }
        #expect(try again.start() == uri)
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT id FROM before_crash") == "7")
    }

    /// In containers a dead postmaster's PID is often reused by an unrelated process; PostgreSQL alone
    /// would then refuse to start ("Is another postmaster running?"), for the data directory and the socket.
    @Test func startWhenTheRecordedPIDBelongsToAnUnrelatedProcess() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        let uri = try cluster.start()
        let pidFile = "\(try #require(cluster.clusterDirectory))/postmaster.pid"
        let lockContents = try String(contentsOfFile: pidFile, encoding: .utf8)
        try cluster.stop()

        let impostor = try Spawn("/bin/sleep", ["30"]).start()
        defer { impostor.kill() }
        let forged = lockContents.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        try (["\(impostor.pid)"] + forged).joined(separator: "\n")
            .write(toFile: pidFile, atomically: false, encoding: .utf8)
        // The socket's lock file is checked the same way.
        let socketLock = "\(try #require(cluster.socketDirectory))/.s.PGSQL.\(cluster.port).lock"
        try "\(impostor.pid)\n".write(toFile: socketLock, atomically: false, encoding: .utf8)

        #expect(try cluster.start() == uri)
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT 1") == "1")
    }

    @Test func aServerLeftRunningByAKilledRunIsAdoptedAndThenStoppable() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let leftover = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(leftover, directory: directory) }
        let uri = try leftover.start()
        let pid = try #require(leftover.postmasterPID)

        let notices = NoticeLog()
        let next = EmbeddedTestSupport.cluster(at: directory, notices: notices)
        #expect(try next.start() == uri)
        #expect(next.postmasterPID == pid)
        #expect(notices.all.contains { $0.contains("reusing the server (PID \(pid))") })
        try next.stop()
        #expect(!leftover.isRunning)
    }

    @Test func aClusterFromAnotherMajorVersionIsRefusedWithAClearError() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/pgdata", withIntermediateDirectories: true)
        try "9\n".write(toFile: "\(directory)/pgdata/PG_VERSION", atomically: false, encoding: .utf8)

        let error = try #require(throws: EmbeddedPostgresError.self) {
            try EmbeddedTestSupport.cluster(at: directory).start()
        }
        #expect(error.code == .versionMismatch)
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            try #require(Date() < deadline, "condition not reached in 10 s")
            usleep(10_000)
        }
    }
}
