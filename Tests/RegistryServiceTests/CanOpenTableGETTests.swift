import Foundation
import RegistryTesting
import Testing

/// `GET /canopen/v1/{app}/{platform}/{version}.json`: the table `CanOpen.GetTable` answers, as a cacheable
/// file (ETag, 304, Cache-Control), with a clear 4xx for a malformed path.
@Suite(.serialized) struct CanOpenTableGETTests {
    static func rpcTable(_ server: TestRegistryServer, version: String) async throws -> (
        etag: String, table: NSDictionary
    ) {
        let result = try await server.result(
            "CanOpen.GetTable", ["app": "badoo", "platform": "ios", "version": version], token: nil)
        let table = try #require(result["table"] as? NSDictionary)
        return (try #require(result.string("etag")), table)
    }

    static func body(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func servesTheGetTableTableWithETagCacheControlAnd304() async throws {
        let server = try TestRegistryServer(suite: "table_get")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let expected = try await Self.rpcTable(server, version: "5.11.0")

        let (data, response) = try await server.get("/canopen/v1/badoo/ios/5.11.0.json")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(response.value(forHTTPHeaderField: "ETag") == expected.etag)
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=300")
        #expect(try Self.body(data) == expected.table)

        let (empty, notModified) = try await server.get("/canopen/v1/badoo/ios/5.11.0.json", ifNoneMatch: expected.etag)
        #expect(notModified.statusCode == 304)
        #expect(empty.isEmpty)
        #expect(notModified.value(forHTTPHeaderField: "ETag") == expected.etag)

        // A version never published (an old build still installed) gets its table, as GetTable answers it.
        let old = try await Self.rpcTable(server, version: "4.0")
        let (oldData, oldResponse) = try await server.get("/canopen/v1/badoo/ios/4.0.json")
        #expect(oldResponse.statusCode == 200)
        #expect(oldResponse.value(forHTTPHeaderField: "ETag") == old.etag)
        #expect(try Self.body(oldData) == old.table)
    }

    @Test func theETagFollowsGetTableThroughPublishesAndKillSwitches() async throws {
        let server = try TestRegistryServer(suite: "table_get_etag")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let path = "/canopen/v1/badoo/ios/5.12.0.json"
        let (_, before) = try await server.get(path)
        let first = try #require(before.value(forHTTPHeaderField: "ETag"))

        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        // After a publish the GET answers what GetTable answers (a version's table lists its own routes, so
        // publishing it leaves it as it was: revalidation stays a 304).
        let published = try await Self.rpcTable(server, version: "5.12.0")
        let (_, after) = try await server.get(path)
        #expect(after.value(forHTTPHeaderField: "ETag") == published.etag)
        let (_, again) = try await server.get(path, ifNoneMatch: first)
        #expect(again.statusCode == (published.etag == first ? 304 : 200))

        _ = try await server.result(
            "Routes.SwitchOff",
            ["app": "badoo", "route": "lookalikes", "platform": "ios", "versions": ["5.12.0"], "reason": "crash"])
        let switched = try await Self.rpcTable(server, version: "5.12.0")
        #expect(switched.etag != published.etag)
        // The kill switch reaches a client revalidating with the old tag: a 200 with the new table.
        let (switchedData, revalidated) = try await server.get(path, ifNoneMatch: published.etag)
        #expect(revalidated.statusCode == 200)
        #expect(revalidated.value(forHTTPHeaderField: "ETag") == switched.etag)
        #expect(try Self.body(switchedData) == switched.table)
        let (_, current) = try await server.get(path, ifNoneMatch: switched.etag)
        #expect(current.statusCode == 304)
    }

    /// Past the documents one request thread keeps, its table starts over: every version still gets its
    /// own table, the ones asked before the overflow included.
    @Test func moreVersionsThanAThreadKeepsStillGetTheirOwnTables() async throws {
        let server = try TestRegistryServer(suite: "table_get_many")
        defer { server.shutdown() }
        try await seedBadoo(server)
        for patch in 0..<(2 * 1_024 + 50) {  // past the bound even if two threads share the GETs
            let (_, response) = try await server.get("/canopen/v1/badoo/ios/5.\(patch % 20).\(patch).json")
            #expect(response.statusCode == 200)
        }
        for version in ["5.0.0", "5.11.11", "5.17.2097", "4.0"] {
            let expected = try await Self.rpcTable(server, version: version)
            let (data, response) = try await server.get("/canopen/v1/badoo/ios/\(version).json")
            #expect(response.value(forHTTPHeaderField: "ETag") == expected.etag, "\(version)")
            #expect(try Self.body(data) == expected.table, "\(version)")
        }
    }

    @Test func malformedPathsGetAClearError() async throws {
        let server = try TestRegistryServer(suite: "table_get_errors")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let cases: [(path: String, status: Int, mentions: String)] = [
            ("/canopen/v1/badoo/windows/5.11.0.json", 400, "platform"),
            ("/canopen/v1/badoo/ios/five.json", 400, "version"),
            ("/canopen/v1/badoo/ios/5..1.json", 400, "version"),
            ("/canopen/v1//ios/5.11.0.json", 400, "app"),
            ("/canopen/v1/nobody/ios/5.11.0.json", 404, "nobody"),
            ("/canopen/v1/badoo/ios/5.11.0", 404, "expected /canopen/v1/{app}/{platform}/{version}.json"),
            ("/canopen/v1/badoo/ios/5.11.0.json/extra", 404, "expected"),
        ]
        for (path, status, mentions) in cases {
            let (data, response) = try await server.get(path)
            let text = String(decoding: data, as: UTF8.self)
            #expect(response.statusCode == status, "\(path): \(text)")
            #expect(text.contains(mentions), "\(path): \(text)")
        }
    }
}
