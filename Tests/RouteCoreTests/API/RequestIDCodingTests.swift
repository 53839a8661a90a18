import Foundation
import RouteCore
import Testing

/// Swift spells the property `requestID` (as the store does); the wire name stays `requestId`, as the OpenRPC
/// document and every client spell it.
@Suite struct RequestIDCodingTests {
    @Test func theAuditEntrysRequestIDTravelsAsRequestId() throws {
        let entry = AuditEntry(
            id: "7", at: "2026-12-01T00:00:00Z", actor: "ci", method: "Releases.Publish",
            resource: "apps/badoo/platforms/ios/releases/5.12.0", before: nil, after: nil, requestID: "a1b2-0007")
        let object = try Self.object(entry)
        #expect(object["requestId"] as? String == "a1b2-0007")
        #expect(object["requestID"] == nil)
        let sent = Data(
            #"{"id":"7","at":"t","actor":"ci","method":"m","resource":"r","requestId":"a1b2-0007"}"#.utf8)
        #expect(try JSONDecoder().decode(AuditEntry.self, from: sent).requestID == "a1b2-0007")
    }

    /// Every input of a write that takes an idempotency key sends it as `requestId`, and reads it back.
    @Test func writeInputsSendTheKeyAsRequestId() throws {
        let version = try Version("5.12.0")
        let inputs: [(any Codable, (Data) throws -> String?)] = [
            (
                API.AppsCreate.Input(.init(app: App(id: "badoo")), requestID: "k"),
                { try Self.decode(API.AppsCreate.Input.self, $0).requestID }
            ),
            (
                API.AppsUpdate.Input(.init(app: App(id: "badoo")), requestID: "k"),
                { try Self.decode(API.AppsUpdate.Input.self, $0).requestID }
            ),
            (
                API.AppsDelete.Input(.init(app: "badoo"), requestID: "k"),
                { try Self.decode(API.AppsDelete.Input.self, $0).requestID }
            ),
            (
                API.DomainsCreate.Input(.init(domain: Domain(host: "m.badoo.com", apps: ["badoo"])), requestID: "k"),
                { try Self.decode(API.DomainsCreate.Input.self, $0).requestID }
            ),
            (
                API.DomainsDelete.Input(.init(host: "m.badoo.com"), requestID: "k"),
                { try Self.decode(API.DomainsDelete.Input.self, $0).requestID }
            ),
            (
                API.RoutesCreate.Input(
                    .init(app: "badoo", route: Route(id: "r", pattern: URLPattern(path: "/u/*"))), requestID: "k"),
                { try Self.decode(API.RoutesCreate.Input.self, $0).requestID }
            ),
            (
                API.RoutesBatchCreate.Input(.init(app: "badoo", routes: []), requestID: "k"),
                { try Self.decode(API.RoutesBatchCreate.Input.self, $0).requestID }
            ),
            (
                API.RoutesUpdate.Input(
                    .init(app: "badoo", route: Route(id: "r", pattern: URLPattern(path: "/u/*"))), requestID: "k"),
                { try Self.decode(API.RoutesUpdate.Input.self, $0).requestID }
            ),
            (
                API.RoutesDelete.Input(.init(app: "badoo", route: "r"), requestID: "k"),
                { try Self.decode(API.RoutesDelete.Input.self, $0).requestID }
            ),
            (
                API.RoutesReorder.Input(.init(app: "badoo", order: ["r"]), requestID: "k"),
                { try Self.decode(API.RoutesReorder.Input.self, $0).requestID }
            ),
            (
                API.RoutesSwitchOff.Input(
                    .init(app: "badoo", route: "r", platform: .ios, versions: [version]), requestID: "k"),
                { try Self.decode(API.RoutesSwitchOff.Input.self, $0).requestID }
            ),
            (
                API.RoutesSwitchOn.Input(
                    .init(app: "badoo", route: "r", platform: .ios, versions: [version]), requestID: "k"),
                { try Self.decode(API.RoutesSwitchOn.Input.self, $0).requestID }
            ),
            (
                API.ReleaseInput(ReleaseKey(app: "badoo", platform: .ios, version: version), requestID: "k"),
                { try Self.decode(API.ReleaseInput.self, $0).requestID }
            ),
            (
                API.TokensRevoke.Input(.init(id: "t"), requestID: "k"),
                { try Self.decode(API.TokensRevoke.Input.self, $0).requestID }
            ),
        ]
        for (input, readBack) in inputs {
            let data = try JSONEncoder().encode(input)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["requestId"] as? String == "k" && object["requestID"] == nil, "\(type(of: input))")
            #expect(try readBack(data) == "k", "\(type(of: input))")
        }
    }

    private static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
