import Foundation
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where the cluster's files go when the obvious place does not work.
@Suite(.serialized)
struct EmbeddedClusterLayoutTests {
    @Test func aSocketPathTooLongForTheKernelMovesToAShortDirectoryUnderTmp() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let deep = directory + "/" + String(repeating: "d", count: 100)
        let cluster = EmbeddedTestSupport.cluster(at: deep)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }

        let uri = try cluster.start()
        let socketDirectory = try #require(cluster.socketDirectory)
        defer { try? FileManager.default.removeItem(atPath: socketDirectory) }
        #expect(socketDirectory.hasPrefix("/tmp/routereg-"))
        #expect("\(socketDirectory)/.s.PGSQL.5432".utf8.count <= 107)
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT 1") == "1")
    }

    /// As root the server runs as `postgres`, which cannot enter a private (0700) directory: the cluster then
    /// lives under /var/tmp and the data directory links to it. An ordinary user owns the directory, so the
    /// cluster stays in place.
    @Test func aDataDirectoryThePostgresUserCannotReachIsRelocatedAndRecorded() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory(mode: 0o700)
        let notices = NoticeLog()
        let cluster = EmbeddedTestSupport.cluster(at: "\(directory)/data", notices: notices)
        let clusterDirectory = { cluster.clusterDirectory ?? "" }
        defer {
            EmbeddedTestSupport.discard(cluster, directory: directory)
            if clusterDirectory().hasPrefix("/var/tmp/") {
                try? FileManager.default.removeItem(atPath: (clusterDirectory() as NSString).deletingLastPathComponent)
            }
        }
        let uri = try cluster.start()
        try EmbeddedTestSupport.psql(uri, "CREATE TABLE relocated (id int)")
        try cluster.stop()

        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/data/pgdata")
        if geteuid() == 0 {
            #expect(clusterDirectory().hasPrefix("/var/tmp/routereg-"))
            #expect(link == clusterDirectory())
            #expect(
                notices.all.contains { $0.contains(clusterDirectory().replacingOccurrences(of: "/pgdata", with: "")) })
        } else {
            #expect(clusterDirectory() == "\(directory)/data/pgdata")
            #expect(link == nil)
        }

        let again = EmbeddedTestSupport.cluster(at: "\(directory)/data")
        defer { try? again.stop() }
        #expect(try again.start() == uri)
        #expect(again.clusterDirectory == clusterDirectory())
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT count(*) FROM relocated") == "0")
    }
}
