import Foundation
import RegistryTesting
import Testing

/// Bad input gets the right status and names the field at fault; nothing is written.
@Suite(.serialized) struct BadInputTests {
    private struct Case: Sendable, CustomTestStringConvertible {
        let method: String
        let params: String
        let code: Int
        let field: String?
        var testDescription: String { "\(method) \(params)" }
    }

    private static let cases: [Case] = [
        Case(method: "Apps.Create", params: #"{"app": {"id": "Bad Id"}}"#, code: -32602, field: "app.id"),
        Case(
            method: "Apps.Create", params: #"{"app": {"id": "x", "ios": {"appIds": ["nodot"]}}}"#, code: -32602,
            field: "app.ios.appIds[0]"),
        Case(method: "Apps.Create", params: #"{"app": {"id": 7}}"#, code: -32602, field: "app.id"),
        Case(method: "Apps.Create", params: #"{}"#, code: -32602, field: "app"),
        Case(
            method: "Domains.Create", params: #"{"domain": {"host": "not a host", "apps": []}}"#, code: -32602,
            field: "domain.host"),
        Case(
            method: "Domains.Create", params: #"{"domain": {"host": "x.example", "apps": ["ghost"]}}"#, code: 9,
            field: "domain.apps"),
        Case(
            method: "Routes.Create",
            params:
                #"{"app": "badoo", "route": {"id": "r", "pattern": {"path": "/a"}, "platforms": {"ios": {"since": "5.x"}}}}"#,
            code: -32602, field: "route.platforms.ios.since"),
        Case(
            method: "Routes.Create", params: #"{"app": "ghost", "route": {"id": "r", "pattern": {"path": "/a"}}}"#,
            code: 5, field: nil),
        Case(method: "Routes.Reorder", params: #"{"app": "badoo", "order": ["profile"]}"#, code: 3, field: "order"),
        Case(
            method: "Releases.Publish", params: #"{"app": "badoo", "platform": "windows", "version": "1"}"#,
            code: -32602, field: "platform"),
        Case(
            method: "Releases.Retire", params: #"{"app": "badoo", "platform": "ios", "version": "9.9"}"#, code: 5,
            field: nil),
        Case(
            method: "CanOpen.Check",
            params: #"{"app": "badoo", "platform": "ios", "version": "5", "url": "not a url"}"#, code: 3, field: "url"),
        Case(method: "Associations.Get", params: #"{"host": "nowhere.example"}"#, code: 5, field: nil),
        Case(method: "Apps.List", params: #"{"pageSize": -1}"#, code: -32602, field: "pageSize"),
        Case(method: "Apps.List", params: #"{"pageToken": "garbage!"}"#, code: 3, field: "pageToken"),
        Case(
            method: "Tokens.Create", params: #"{"token": {"displayName": "x", "role": "root"}}"#, code: -32602,
            field: "token.role"),
    ]

    @Test func badInputIsRefusedWithTheFieldAtFault() async throws {
        let server = try TestRegistryServer(suite: "badinput")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let auditBefore = try await auditCount(server)
        for test in Self.cases {
            let data = try await post(server, test.method, params: test.params)
            let response = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let error = try #require(response["error"] as? [String: Any], "\(test.testDescription) succeeded")
            #expect(error.int("code") == test.code, "\(test.testDescription): \(error)")
            let message = error.string("message") ?? ""
            #expect(!message.isEmpty && !message.contains("SELECT") && !message.contains("/work"), "\(message)")
            if let field = test.field {
                let details = (error.object("data")?.array("details") ?? []).compactMap { $0 as? [String: Any] }
                #expect(details.contains { $0.string("field") == field }, "\(test.testDescription): \(error)")
                #expect(error.object("data")?.string("status") == "INVALID_ARGUMENT" || test.code == 9)
            }
        }
        let auditAfter = try await auditCount(server)
        #expect(auditAfter == auditBefore, "a refused request wrote something")
    }
}

/// A typo in a write is refused, not silently dropped (a pattern without its path would match every URL).
@Suite(.serialized) struct UnknownFieldTests {
    @Test func typosInWritesAreRefusedWithTheirPath() async throws {
        let server = try TestRegistryServer(suite: "typos")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let typo = try await server.call(
            "Routes.Create", ["app": "badoo", "route": ["id": "x", "pattern": ["paht": "/x/*"]]])
        let error = try #require(typo["error"] as? [String: Any])
        #expect(error.int("code") == -32602)
        let fields = (error.object("data")?.array("details") ?? []).compactMap {
            ($0 as? [String: Any])?.string("field")
        }
        #expect(fields == ["route.pattern.paht"])
        #expect(errorCode(try await server.call("Apps.Create", ["app": ["id": "y"], "extra": 1])) == -32602)

        // A resource read back and sent again (with its output-only fields) is accepted.
        let route = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        var updated = route
        updated["comment"] = "profiles"
        let result = try await server.result(
            "Routes.Update", ["app": "badoo", "route": updated, "etag": route.string("etag")!])
        #expect(result.string("comment") == "profiles")
    }
}
