import Foundation

/// Request bodies shared by the suites: one app on two hosts, with routes and releases.
enum Fixture {
    static func app(_ id: String) -> [String: Any] {
        [
            "app": [
                "id": id, "displayName": "Reliability \(id)",
                "ios": ["appIds": ["ABCDE12345.com.example.\(id)"]],
                "android": [
                    "packageName": "com.example.\(id)",
                    "sha256CertFingerprints": [
                        (0..<32).map { _ in "AB" }.joined(separator: ":")
                    ],
                ],
                "fallback": ["queryItem": "ul_fallback"],
            ]
        ]
    }

    static func hosts(_ app: String) -> [String] { ["\(app).example.com", "www.\(app).example.com"] }

    /// Creates the app and its two domains.
    static func seed(_ client: RegistryClient, app: String) async throws {
        _ = try await client.result("Apps.Create", Self.app(app))
        for host in hosts(app) {
            _ = try await client.result("Domains.Create", ["domain": ["host": host, "apps": [app]]])
        }
    }

    static func route(_ id: String, path: String, since: String = "1.0") -> [String: Any] {
        [
            "id": id, "pattern": ["path": path], "action": "open",
            "platforms": ["ios": ["since": since], "android": ["since": since]],
        ]
    }
}

/// A small deterministic generator, so a failing run can be replayed with the same choices.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
