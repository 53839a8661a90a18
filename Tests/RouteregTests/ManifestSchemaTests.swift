import Foundation
import JSONRPC
import RouteCore
import Testing

/// The schema alone: what it accepts and refuses, without a server.
@Suite struct ManifestSchemaTests {
    /// The manifest schema, compiled by the validator the server checks its params with.
    static var schema: JSONSchemaDocument {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Schema/routereg-manifest.schema.json")
            return try JSONSchemaDocument(Array(try Data(contentsOf: url)))
        }
    }

    @Test func aManifestOfEveryFieldIsValid() throws {
        let manifest = Manifest(
            schema: "./routereg-manifest.schema.json",
            app: App(
                id: "badoo", displayName: "Badoo",
                ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"], webcredentials: true, appStoreId: "284882215"),
                android: AndroidConfig(
                    packageName: "com.badoo.mobile",
                    sha256CertFingerprints: [Array(repeating: "AB", count: 32).joined(separator: ":")]),
                schemes: ["badoo"], fallback: FallbackPolicy(queryItem: "web", value: "1")),
            domains: [
                ManifestDomain(host: "m.badoo.com", substitutionVariables: ["food": ["pizza"]], links: false),
                ManifestDomain(host: "go.badoo.com", links: true),
            ],
            routes: [
                ManifestRoute(
                    id: "profile", pattern: URLPattern(path: "/u/*", query: .items(["ref": "*"])),
                    platforms: [
                        .ios: VersionRange(since: try Version("5.0"), until: try Version("6.0")),
                        .android: VersionRange(since: try Version("51200")),
                    ], domains: ["m.badoo.com"], comment: "Profiles"),
                ManifestRoute(id: "help", pattern: URLPattern(path: "/help/*"), action: .exclude),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(manifest)
        let schema = try Self.schema
        #expect(schema.violation(in: Array(data)) == nil)
        #expect(try Manifest(strictJSON: data) == manifest)
    }

    @Test(arguments: [
        (#"{"app": {"id": "badoo"}, "routes": [{"id": "a", "pattern": {}, "coment": "x"}]}"#, "routes[0]"),
        (#"{"app": {"id": "badoo", "ios": {"appIds": []}}}"#, "app.ios.appIds"),
        (#"{"app": {"id": "badoo"}, "domains": [{"host": "m.badoo.com", "apps": ["badoo"]}]}"#, "domains[0]"),
        (#"{"app": {"id": "badoo"}, "routes": [{"id": "a", "pattern": {}, "switchedOff": {}}]}"#, "routes[0]"),
        (#"{"routes": []}"#, "app"),
    ])
    func aWrongMemberFails(text: String, field: String) throws {
        let violation = try Self.schema.violation(in: Array(text.utf8))
        #expect(violation?.contains(field) == true, "\(violation ?? "valid")")
    }
}
