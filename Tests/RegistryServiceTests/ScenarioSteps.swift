import Foundation
import RegistryTesting

/// The Badoo registry with 5.11.0 live (ARCHITECTURE.md "The reference scenario", steps 1–2), for tests that need one.
func seedBadoo(_ server: TestRegistryServer) async throws {
    _ = try await server.result(
        "Apps.Create", ["app": ["id": "badoo", "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"]]]])
    _ = try await server.result("Domains.Create", ["domain": ["host": "m.badoo.com", "apps": ["badoo"]]])
    _ = try await server.result(
        "Routes.Create",
        [
            "app": "badoo",
            "route": ["id": "profile", "pattern": ["path": "/u/*"], "platforms": ["ios": ["since": "5.0"]]],
        ])
    _ = try await server.result(
        "Routes.Create",
        [
            "app": "badoo",
            "route": ["id": "lookalikes", "pattern": ["path": "/l/a/*"], "platforms": ["ios": ["since": "5.12.0"]]],
        ])
    _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
}

/// Sends one call whose params are raw JSON text (which may be invalid for the method); the response bytes.
func post(_ server: TestRegistryServer, _ method: String, params: String) async throws -> Data {
    let body = #"{"jsonrpc": "2.0", "id": 1, "method": "\#(method)", "params": \#(params)}"#
    return try await server.post(Data(body.utf8)).0
}

/// How many audit entries the registry holds (up to 1,000).
func auditCount(_ server: TestRegistryServer) async throws -> Int {
    try await server.result("Audit.List", ["pageSize": 1000]).array("entries").count
}

/// The error code of a JSON-RPC response, or nil when it succeeded.
func errorCode(_ response: [String: Any]) -> Int? {
    (response["error"] as? [String: Any])?.int("code")
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
func eventually(within timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
