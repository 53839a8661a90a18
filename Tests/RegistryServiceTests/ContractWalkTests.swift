import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryTesting
import Testing

/// The server enforces every rule the OpenRPC document states, for every method: each constrained field is
/// sent a value just inside and one just outside each rule (`ContractProbes`), on top of a minimal valid
/// call. Outside: -32602, INVALID_ARGUMENT, naming the field and the rule. Inside: nothing names the field.
@Suite(.serialized) struct ContractWalkTests {
    private static func document() throws -> [String: Any] {
        let bytes = try #require(OpenRPCDocument.bytes)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// Fields whose valid values are more than the document's rules can say: a value inside every rule may
    /// still be refused by the service (INVALID_ARGUMENT, code 3), for the reason given.
    private static let semantic = [
        "pageToken": "opaque: only a token the server handed out is valid",
        "url": "must be an absolute URL, which no pattern in the document spells out",
        "until": "must be after since: a rule between two fields",
        "webFallback": "only a custom-scheme route has one: a rule between two fields",
        "domain": "a short link's domain must be a link domain of its app: a rule between the request and the registry",
    ]

    @Test func everyRuleOfTheDocumentIsEnforcedAtItsBoundary() async throws {
        let probes = try ContractProbes(document: Self.document())
        #expect(probes.unsatisfiable == [], "add a sample to ContractProbes.samples")
        // The walk must reach the rules the issue named, or it is not walking the document.
        let fields = Set(probes.probes.map { "\($0.method) \($0.field) \($0.rule ?? "")" })
        for expected in [
            "Apps.Create app.displayName maxLength 200", "Routes.Create route.comment maxLength 1000",
            "Routes.SwitchOff reason maxLength 1000", "Apps.Create app.ios.appIds minItems 1",
            "Releases.Create version must be", "Apps.Get zzUnknown not a field", "CanOpen.Check url maxLength 8192",
        ] {
            #expect(fields.contains(expected), "no probe \(expected)")
        }

        let server = try TestRegistryServer(suite: "contract_walk")
        defer { server.shutdown() }
        try await seedBadoo(server)
        var failures: [String] = []
        for (method, baseline) in probes.baselines.sorted(by: { $0.key < $1.key }) {
            let response = try await server.call(method, baseline)
            if errorCode(response) == -32602 { failures.append("\(method) minimal call refused: \(response)") }
        }
        for probe in probes.probes {
            let response = try await server.call(probe.method, probes.params(for: probe))
            let error = response["error"] as? [String: Any]
            let details = (error?.object("data")?.array("details") ?? []).compactMap { $0 as? [String: Any] }
            if let rule = probe.rule {
                let named = details.first { $0.string("field") == probe.field }
                let description = named?.string("description") ?? ""
                if error?.int("code") != -32602 || error?.object("data")?.string("status") != "INVALID_ARGUMENT"
                    || !description.contains(rule)
                {
                    failures.append("\(probe): \(error.map { jsonText($0) } ?? "accepted")")
                }
            } else if details.contains(where: { $0.string("field") == probe.field }),
                error?.int("code") == -32602 || Self.semantic[String(probe.field.split(separator: ".").last!)] == nil
            {
                failures.append("\(probe): \(jsonText(error!))")
            }
        }
        #expect(
            failures.isEmpty, "\(failures.count) of \(probes.probes.count) probes:\n\(failures.joined(separator: "\n"))"
        )
        #expect(probes.probes.count > 300)
    }
}
