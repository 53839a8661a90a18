import Foundation
import RegistryTesting
import Testing

/// Refusals speak the API's words: the field, the rule or the allowed values, never a Swift type, decoder
/// text or a 100 KB echo of the bad value; and what a refusal refused is not stored.
@Suite(.serialized) struct ErrorWordingTests {
    private struct Case: Sendable, CustomTestStringConvertible {
        let method: String
        let params: String
        let field: String
        /// Words the description must hold.
        let says: [String]
        var testDescription: String { "\(method) \(params.prefix(80))" }
    }

    /// What an error must never contain: Swift type names and Foundation's decoder sentences.
    private static let internals = [
        "Cannot initialize", "Could not convert", "not valid JSON", "Swift.", "DecodingError", "Platform",
        "DocumentKind", "ReleaseState", "Access", "Optional(", "Expected to decode", "CodingKeys",
    ]

    private static let long = String(repeating: "x", count: 100_000)

    private static let cases: [Case] = [
        Case(
            method: "Tokens.Create", params: #"{"token": {"displayName": "x", "role": "superuser"}}"#,
            field: "token.role", says: [#""admin", "releaser", "reader""#]),
        Case(
            method: "Releases.Create", params: #"{"app": "badoo", "platform": "windows", "version": "1"}"#,
            field: "platform", says: [#""ios", "android""#]),
        Case(
            method: "Associations.Get", params: #"{"host": "m.badoo.com", "kind": "pdf"}"#, field: "kind",
            says: [#""aasa", "assetlinks""#]),
        Case(
            method: "Releases.List", params: #"{"app": "badoo", "state": "gone"}"#, field: "state",
            says: [#""draft", "live", "retired""#]),
        Case(
            method: "Routes.Create",
            params:
                #"{"app": "badoo", "route": {"id": "r", "pattern": {"path": "/r"}, "platforms": {"web": {"since": "1"}}}}"#,
            field: "route.platforms.web", says: ["not a field"]),
        Case(method: "Apps.List", params: #"{"pageSize": 1e308}"#, field: "pageSize", says: ["integer"]),
        Case(method: "Apps.Get", params: #"{"app": "\ud800"}"#, field: "app", says: ["Unicode"]),
        Case(
            method: "Releases.Create", params: #"{"app": "badoo", "platform": "ios", "version": 5}"#, field: "version",
            says: ["must be a string"]),
        Case(
            method: "Releases.Create", params: #"{"app": "badoo", "platform": "ios", "version": 1e2}"#,
            field: "version", says: ["must be a string"]),
        Case(
            method: "Releases.Create", params: #"{"app": "badoo", "platform": "ios", "version": -0}"#, field: "version",
            says: ["must be a string"]),
        Case(
            method: "Routes.Create",
            params:
                #"{"app": "badoo", "route": {"id": "r", "pattern": {"path": "/r"}, "platforms": {"ios": {"since": 5}}}}"#,
            field: "route.platforms.ios.since", says: ["must be a string"]),
        Case(method: "Apps.Get", params: #"{"app": "badoo", "extra": 1}"#, field: "extra", says: ["not a field"]),
        Case(
            method: "CanOpen.Check",
            params: #"{"app": "badoo", "platform": "ios", "version": "5", "url": "https://m.badoo.com/u/1", "x": "y"}"#,
            field: "x", says: ["not a field"]),
        Case(
            method: "Apps.Create", params: #"{"app": {"id": "y", "displayName": "\#(long)"}}"#,
            field: "app.displayName", says: ["maxLength 200"]),
        Case(
            method: "Routes.Create",
            params: #"{"app": "badoo", "route": {"id": "r", "pattern": {"path": "/r"}, "comment": "\#(long)"}}"#,
            field: "route.comment", says: ["maxLength 1000"]),
        Case(
            method: "Routes.SwitchOff",
            params:
                #"{"app": "badoo", "route": "profile", "platform": "ios", "versions": ["5.0"], "reason": "\#(long)"}"#,
            field: "reason", says: ["maxLength 1000"]),
        Case(
            method: "Apps.Create", params: #"{"app": {"id": "z", "ios": {"appIds": []}}}"#, field: "app.ios.appIds",
            says: ["minItems 1"]),
        Case(
            method: "Routes.Create",
            params: #"{"app": "badoo", "route": {"id": "r", "pattern": {"path": "no-slash"}}}"#,
            field: "route.pattern.path", says: ["iOS paths start with /"]),
        Case(method: "Apps.Get", params: #"{"app": "\#(long)"}"#, field: "app", says: ["pattern"]),
    ]

    @Test func refusalsNameTheFieldAndTheRuleInTheAPIsWords() async throws {
        let server = try TestRegistryServer(suite: "wording")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let auditBefore = try await auditCount(server)
        for test in Self.cases {
            let data = try await post(server, test.method, params: test.params)
            let text = String(decoding: data, as: UTF8.self)
            #expect(data.count < 2_000, "\(test.testDescription): a \(data.count)-byte error")
            for word in Self.internals { #expect(!text.contains(word), "\(test.testDescription): \(text)") }
            let response = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let error = try #require(response["error"] as? [String: Any], "\(test.testDescription) succeeded")
            #expect(error.int("code") == -32602, "\(test.testDescription): \(text)")
            #expect(error.object("data")?.string("status") == "INVALID_ARGUMENT")
            let details = (error.object("data")?.array("details") ?? []).compactMap { $0 as? [String: Any] }
            let named = details.first { $0.string("field") == test.field }
            #expect(named != nil, "\(test.testDescription): \(text)")
            for word in test.says {
                #expect(named?.string("description")?.contains(word) == true, "\(test.testDescription): \(text)")
            }
        }
        let auditAfter = try await auditCount(server)
        #expect(auditAfter == auditBefore, "a refused request wrote something")
        let stored = try await server.result("Routes.Get", ["app": "badoo", "route": "profile"])
        #expect(stored.object("switchedOff")?.array("ios").isEmpty ?? true)
    }
}
