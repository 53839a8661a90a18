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
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
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

        let home = (clusterDirectory() as NSString).deletingLastPathComponent
        try again.destroy()
        #expect(!FileManager.default.fileExists(atPath: clusterDirectory()))
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/data/pgdata"))
        if geteuid() == 0 { #expect(!FileManager.default.fileExists(atPath: home)) }
    }

    /// A data directory of our own made private by `mktemp -d`, under reachable parents, is opened for search
    /// (o+x) instead of relocated: a relocated cluster would outlive the directory when a script deletes it.
    @Test func aPrivateDataDirectoryUnderReachableParentsStaysInPlace() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        try FileManager.default.createDirectory(
            atPath: "\(directory)/data", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let cluster = EmbeddedTestSupport.cluster(at: "\(directory)/data")
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        let uri = try cluster.start()
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT 1") == "1")
        #expect(cluster.clusterDirectory == "\(directory)/data/pgdata")
        let mode = try FileManager.default.attributesOfItem(atPath: "\(directory)/data")[.posixPermissions] as? Int
        #expect(mode == (geteuid() == 0 ? 0o701 : 0o700))
    }

    /// The server reports its directory with symlinks resolved; comparing against the unresolved path
    /// would take a running server for a crashed one and start a second postmaster on the same files.
    @Test func aServerStartedThroughASymlinkedPathIsRecognisedAsRunning() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        try FileManager.default.createDirectory(atPath: "\(directory)/real", withIntermediateDirectories: false)
        chmod("\(directory)/real", 0o711)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/alias", withDestinationPath: "real")
        let first = EmbeddedTestSupport.cluster(at: "\(directory)/alias")
        defer { EmbeddedTestSupport.discard(first, directory: directory) }
        try first.start()
        let pid = try #require(first.postmasterPID)

        let second = EmbeddedTestSupport.cluster(at: "\(directory)/alias")
        try second.start()
        #expect(second.postmasterPID == pid)
    }

    /// /tmp/routereg-<hash> is a predictable name: a symlink planted there must not be followed.
    @Test func aPlantedSymlinkInPlaceOfTheShortSocketDirectoryIsRefused() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let deep = directory + "/" + String(repeating: "s", count: 100)
        let cluster = EmbeddedTestSupport.cluster(at: deep)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        try cluster.start()
        let socketDirectory = try #require(cluster.socketDirectory)
        try cluster.stop()
        try FileManager.default.removeItem(atPath: socketDirectory)
        try FileManager.default.createSymbolicLink(atPath: socketDirectory, withDestinationPath: directory)
        defer { try? FileManager.default.removeItem(atPath: socketDirectory) }

        let error = try #require(throws: EmbeddedPostgresError.self) {
            try EmbeddedTestSupport.cluster(at: deep).start()
        }
        #expect(error.code == .directoryUnusable)
    }
}
