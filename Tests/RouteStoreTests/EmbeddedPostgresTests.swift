import Foundation
import RegistryTesting
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The embedded cluster behind `routereg serve`: first start, reuse, stop, and recovery from crashes.
/// Each test owns its cluster in its own directory; `.serialized` keeps the two CPUs from being flooded
/// by parallel initdb runs.
@Suite(.serialized)
struct EmbeddedPostgresTests {
    @Test func startServesTheDatabaseOverThePrivateSocketAndKeepsDataAcrossRestarts() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: "\(directory)/data")
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }

        let uri = try cluster.start()
        #expect(uri.hasPrefix("postgresql://postgres@/routereg?host="))
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT current_database()") == "routereg")
        #expect(try EmbeddedTestSupport.psql(uri, "SHOW listen_addresses") == "")
        try EmbeddedTestSupport.psql(uri, "CREATE TABLE survivor (id int); INSERT INTO survivor VALUES (42)")
        #expect(FileManager.default.fileExists(atPath: "\(directory)/data/postgres.log"))

        try cluster.stop()
        #expect(!cluster.isRunning)
        #expect(throws: (any Error).self) { try EmbeddedTestSupport.psql(uri, "SELECT 1") }

        #expect(try cluster.start() == uri)
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT id FROM survivor") == "42")
    }

    @Test func aNewInstanceOnTheSameDirectoryReusesTheCluster() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let first = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(first, directory: directory) }
        let uri = try first.start()
        try EmbeddedTestSupport.psql(uri, "CREATE TABLE kept (id int)")
        try first.stop()

        let second = EmbeddedTestSupport.cluster(at: directory)
        defer { try? second.stop() }
        #expect(try second.start() == uri)
        #expect(try EmbeddedTestSupport.psql(uri, "SELECT count(*) FROM kept") == "0")
    }

    @Test func asRootTheClusterBelongsToThePostgresUserWithPrivateMode() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        try cluster.start()

        let attributes = try FileManager.default.attributesOfItem(atPath: try #require(cluster.clusterDirectory))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let expectedOwner = geteuid() == 0 ? "postgres" : String(cString: getpwuid(geteuid())!.pointee.pw_name)
        #expect((attributes[.ownerAccountName] as? String) == expectedOwner)
    }

    @Test func stopIsIdempotentAndSafeFromManyThreadsAtOnce() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: directory)
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        try cluster.stop()  // Never started: nothing to do.
        try cluster.start()

        DispatchQueue.concurrentPerform(iterations: 4) { _ in try? cluster.stop() }
        #expect(!cluster.isRunning)
        try cluster.stop()
    }

    @Test func stopAllRunningStopsTheClustersThatAskedForItAndNoOthers() throws {
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedTestSupport.cluster(at: directory, stopsWithProcess: true)
        let bystander = EmbeddedTestSupport.cluster(at: directory + "/bystander")
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }
        try cluster.start()

        try bystander.start()
        defer { try? bystander.stop() }

        EmbeddedPostgres.stopAllRunning()
        #expect(!cluster.isRunning)
        #expect(bystander.isRunning)
    }

    @Test func aServerThatCannotStartReportsTheEndOfItsLog() throws {
        let busyPort = try TestPostgres.cluster.port  // Taken by the shared test cluster.
        let directory = try EmbeddedTestSupport.scratchDirectory()
        let cluster = EmbeddedPostgres(
            configuration: .init(
                dataDirectory: directory, tcpPort: busyPort, durable: false, stopsWithProcess: false,
                notice: { _ in }))
        defer { EmbeddedTestSupport.discard(cluster, directory: directory) }

        let error = try #require(throws: EmbeddedPostgresError.self) { try cluster.start() }
        #expect(error.code == .startFailed)
        #expect(error.message.contains("could not bind"))
        #expect(!cluster.isRunning)
    }
}
