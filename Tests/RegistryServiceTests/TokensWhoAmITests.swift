import Foundation
import RegistryTesting
import RouteCore
import Testing

/// `Tokens.WhoAmI` tells a caller its own id and role (the console hides write controls from readers), and
/// nobody else's: the answer follows the bearer token, whatever the params say.
@Suite(.serialized) struct TokensWhoAmITests {
    @Test func answersTheCallersIdAndRole() async throws {
        let server = try TestRegistryServer(suite: "whoami")
        defer { server.shutdown() }
        let admin = try await server.result("Tokens.WhoAmI", [:])
        #expect(admin.string("id") == "bootstrap-admin")
        #expect(admin.string("role") == "admin")
        #expect(admin.string("name") == "tokens/bootstrap-admin")

        let created = try await server.result(
            "Tokens.Create", ["token": ["displayName": "viewer", "role": "reader"]])
        let secret = try #require(created.string("secret"))
        let id = try #require((created["token"] as? [String: Any])?.string("id"))
        let reader = try await server.result("Tokens.WhoAmI", [:], token: secret)
        #expect(reader.string("id") == id)
        #expect(reader.string("role") == "reader")

        #expect(errorCode(try await server.call("Tokens.WhoAmI", [:], token: nil)) == 16)
        #expect(errorCode(try await server.call("Tokens.WhoAmI", [:], token: "rr_unknown")) == 16)
        // Params cannot ask about someone else: the method takes none, so an `id` is refused, naming it.
        let asked = try await server.call("Tokens.WhoAmI", ["id": "bootstrap-admin"], token: secret)
        #expect(errorCode(asked) == -32602)
        #expect("\(asked)".contains("is not a field"))
    }
}
