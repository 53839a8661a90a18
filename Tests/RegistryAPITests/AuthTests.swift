import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

@Suite("Bearer-token access control")
final class AuthTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    deinit { server.stop() }

    static let methods: [(String, Access)] = [
        ("Test.Public", .public), ("Test.Read", .reader), ("Test.Release", .releaser), ("Test.Admin", .admin),
    ]
    /// nil: no header; "x": unknown; r/w/a: reader/releaser/admin.
    static let tokens: [(String?, Access?)] = [(nil, nil), ("x", nil), ("r", .reader), ("w", .releaser), ("a", .admin)]

    @Test("every method × every token", arguments: methods, tokens)
    func matrix(_ method: (String, Access), _ token: (String?, Access?)) throws {
        let headers = token.0.map { [("Authorization", "Bearer \($0)")] } ?? []
        let value = try server.call(#"{"jsonrpc":"2.0","method":""# + method.0 + #"","id":1}"#, headers: headers)
        let expected: Int?
        if method.1 == .public {
            expected = nil
        } else if let role = token.1 {
            expected = role >= method.1 ? nil : 7
        } else {
            expected = 16
        }
        #expect(value["error"]?["code"]?.int == expected)
        if expected == nil {
            #expect(value["result"] != nil)
            if method.1 != .public { #expect(value["result"]?["role"]?.stringValue == token.1?.rawValue) }
        } else {
            #expect(
                value["error"]?["data"]?["status"]?.stringValue
                    == (expected == 7 ? "PERMISSION_DENIED" : "UNAUTHENTICATED"))
        }
    }

    @Test(
        "malformed Authorization headers are unauthenticated",
        arguments: ["a", "Basic a", "Bearer", "Bearer ", "Bearera"])
    func malformed(_ header: String) throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Read","id":1}"#, headers: [("Authorization", header)])
        #expect(value["error"]?["code"]?.int == 16)
    }

    @Test("the scheme is case-insensitive")
    func schemeCase() throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Admin","id":1}"#, headers: [("Authorization", "bearer a")])
        #expect(value["result"]?["id"]?.stringValue == "tok-admin")
    }

    @Test("a batch mixes allowed and refused calls")
    func batch() throws {
        let value = try server.call(
            #"[{"jsonrpc":"2.0","method":"Test.Read","id":1},{"jsonrpc":"2.0","method":"Test.Admin","id":2}]"#,
            headers: [("Authorization", "Bearer r")])
        let members = try #require(value.array)
        #expect(members[0]["result"]?["role"]?.stringValue == "reader")
        #expect(members[1]["error"]?["code"]?.int == 7)
    }
}
