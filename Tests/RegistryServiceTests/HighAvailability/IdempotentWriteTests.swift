import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryTesting
import RouteCore
import Testing

/// `requestId` (AIP-155): a retried write returns the first outcome instead of writing again.
@Suite struct IdempotentWriteTests {
    @Test func aRetryWithTheSameRequestIdReturnsTheFirstOutcomeAndWritesNothing() async throws {
        let server = try TestRegistryServer(suite: "idempotent")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let params: [String: Any] = [
            "app": "badoo", "requestId": "retry-1",
            "route": ["id": "help", "pattern": ["path": "/help/*"], "platforms": ["ios": ["since": "5.0"]]],
        ]
        let first = try await server.result("Routes.Create", params)
        let auditBefore = try await auditCount(server)
        let revisionsBefore = try await server.result("Associations.Get", ["host": "m.badoo.com"]).int("revision")

        let retry = try await server.result("Routes.Create", params)
        #expect(
            NSDictionary(dictionary: retry) == NSDictionary(dictionary: first), "the retry answers the first outcome")
        #expect(try await auditCount(server) == auditBefore, "the retry wrote an audit entry")
        #expect(try await server.result("Associations.Get", ["host": "m.badoo.com"]).int("revision") == revisionsBefore)

        // Without the key the same call is a new write (here refused: the route exists).
        var plain = params
        plain["requestId"] = nil
        #expect(errorCode(try await server.call("Routes.Create", plain)) == 6)
        // The key is scoped to the method: the same key on another method writes.
        let publish = try await server.result(
            "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0", "requestId": "retry-1"])
        #expect(publish["event"] != nil || !publish.isEmpty)
        #expect(try await auditCount(server) == auditBefore + 1)
    }

    /// The key holds the params it was first sent with (issue 42): the same params in another key order and
    /// spacing are the same call and replay; other params with the key are refused INVALID_ARGUMENT naming
    /// `requestId`, and nothing is written; a new key makes them a new call.
    @Test func aRequestIdReusedWithOtherParamsIsRefusedAndTheSameParamsSpeltOtherwiseReplay() async throws {
        let server = try TestRegistryServer(suite: "idempotent_params")
        defer { server.shutdown() }
        try await seedBadoo(server)
        func call(_ params: String) async throws -> [String: Any] {
            let data = try await post(server, "Routes.Create", params: params)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let created = try await call(
            #"{"app":"badoo","requestId":"k-params","route":{"id":"help","pattern":{"path":"/help/*"},"#
                + #""platforms":{"ios":{"since":"5.0"}}}}"#)
        let first = try #require(created["result"] as? [String: Any])
        let audited = try await auditCount(server)

        let respelt = try await call(
            """
            { "route": { "platforms": { "ios": { "since": "5.0" } }, "pattern": { "path": "/help/*" }, "id": "help" },
              "requestId": "k-params",
              "app": "badoo" }
            """)
        let replayed = try #require(respelt["result"] as? [String: Any], "\(respelt)")
        #expect(NSDictionary(dictionary: replayed) == NSDictionary(dictionary: first))
        #expect(try await auditCount(server) == audited, "the replay wrote an audit entry")

        let other =
            #"{"app":"badoo","requestId":"k-params","route":{"id":"faq","pattern":{"path":"/faq/*"},"#
            + #""platforms":{"ios":{"since":"5.0"}}}}"#
        let refused = try await call(other)
        let error = try #require(refused["error"] as? [String: Any], "\(refused)")
        #expect(error.int("code") == 3)
        #expect(error.object("data")?.string("status") == "INVALID_ARGUMENT")
        let fields = (error.object("data")?.array("details") ?? []).compactMap {
            ($0 as? [String: Any])?.string("field")
        }
        #expect(fields == ["requestId"])
        #expect(error.string("message")?.contains("already used with different params") == true, "\(error)")
        #expect(try await auditCount(server) == audited, "the refused call wrote an audit entry")
        #expect(errorCode(try await server.call("Routes.Get", ["app": "badoo", "route": "faq"])) == 5)

        let fresh = try await call(other.replacingOccurrences(of: "k-params", with: "k-params-2"))
        #expect((fresh["result"] as? [String: Any])?["id"] as? String == "faq", "\(fresh)")
        #expect(try await auditCount(server) == audited + 1)
    }

    @Test func aFailedFirstAttemptRecordsNothingSoItsRetryRuns() async throws {
        let server = try TestRegistryServer(suite: "idempotent_fail")
        defer { server.shutdown() }
        let params: [String: Any] = [
            "app": "later", "requestId": "k:1", "route": ["id": "r", "pattern": ["path": "/r/*"], "action": "exclude"],
        ]
        #expect(errorCode(try await server.call("Routes.Create", params)) == 5)  // No such app yet.
        _ = try await server.result("Apps.Create", ["app": ["id": "later"]])
        let created = try await server.result("Routes.Create", params)
        #expect(created["id"] as? String == "r")
    }

    @Test(arguments: ["", "has space", "slash/no", String(repeating: "a", count: 65), "é"])
    func aMalformedRequestIdIsInvalidArgumentNamingIt(_ key: String) async throws {
        let server = try TestRegistryServer(suite: "idempotent_bad")
        defer { server.shutdown() }
        let answer = try await server.call("Apps.Create", ["app": ["id": "x"], "requestId": key])
        let error = try #require(answer["error"] as? [String: Any])
        // The document's RequestId pattern refuses it before decoding, as every rule of the document is.
        #expect(error.int("code") == -32602)
        #expect((error["data"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")
        #expect("\(error)".contains("requestId"))
        #expect(errorCode(try await server.call("Apps.Get", ["app": "x"])) == 5, "nothing was written")
    }

    @Test func theMethodsTakingARequestIdAreTheOnesTheOpenRPCDocumentGivesOne() throws {
        let bytes = try #require(OpenRPCDocument.bytes)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let methods = try #require(document["methods"] as? [[String: Any]])
        let documented = Set(
            methods.filter { method in
                (method["params"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "requestId" }
            }.compactMap { $0["name"] as? String })
        #expect(documented == API.RequestID.methods)
        let writes = Set(API.all.filter { $0.isWrite }.map { $0.name })
        // Only a new token, whose secret is shown once and cannot be answered again, is a write without a key;
        // no read takes one.
        #expect(writes.subtracting(API.RequestID.methods) == ["Tokens.Create"])
        #expect(API.RequestID.methods.isSubset(of: writes))
    }

    private func auditCount(_ server: TestRegistryServer) async throws -> Int {
        let page = try await server.result("Audit.List", ["pageSize": 1000])
        return (page["entries"] as? [Any])?.count ?? -1
    }
}
