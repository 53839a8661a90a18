import Foundation
import JSONRPC
import RegistryTesting
import RouteCore
import Testing

/// Every method × every kind of caller: public methods need nothing; the rest answer UNAUTHENTICATED (16)
/// without a valid token and PERMISSION_DENIED (7) to a role below the method's.
@Suite(.serialized) struct AuthorizationMatrixTests {
    @Test func everyMethodChecksTheCallersRole() async throws {
        // Every method is called with an unknown token: more failed sign-ins than the default limit allows from
        // one address (ScopedTokenTests holds the limit itself).
        let server = try TestRegistryServer(
            suite: "authz", signInLimit: SignInLimiter.Policy(maxFailures: 10_000))
        defer { server.shutdown() }
        var tokens: [Access: String] = [:]
        for role in [Access.reader, .releaser, .admin] {
            let created = try await server.result(
                "Tokens.Create", ["token": ["displayName": "\(role.rawValue) bot", "role": role.rawValue]])
            tokens[role] = created.string("secret")
            #expect(tokens[role]?.hasPrefix("rr_") == true)
        }
        let callers: [(String, String?, Access?)] = [
            ("no token", nil, nil), ("unknown token", "rr_not-a-real-token", nil),
            ("reader", tokens[.reader], .reader), ("releaser", tokens[.releaser], .releaser),
            ("admin", tokens[.admin], .admin),
        ]
        for method in API.all where method.name != API.AssociationsWatch.name {
            for (label, token, role) in callers {
                // Empty params: authorization is checked before params are decoded or anything is touched.
                let response = try await server.call(method.name, [:], token: token)
                let code = errorCode(response)
                if method.access == .public {
                    #expect(
                        code != 16 && code != 7,
                        "\(method.name) as \(label) must be allowed, got \(String(describing: code))")
                } else if role == nil {
                    #expect(code == 16, "\(method.name) as \(label)")
                } else if role! < method.access {
                    #expect(code == 7, "\(method.name) as \(label)")
                } else {
                    #expect(
                        code != 16 && code != 7,
                        "\(method.name) as \(label) must be allowed, got \(String(describing: code))")
                }
            }
        }
        // A revoked token authenticates nobody.
        let listed = try await server.result("Tokens.List", [:])
        let readerID = try #require(
            listed.array("tokens").compactMap { $0 as? [String: Any] }.first { $0.string("role") == "reader" }?.string(
                "id"))
        _ = try await server.result("Tokens.Revoke", ["id": readerID])
        #expect(errorCode(try await server.call("Apps.List", [:], token: tokens[.reader])) == 16)
    }
}
