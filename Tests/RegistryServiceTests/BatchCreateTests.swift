import Foundation
import RegistryTesting
import Testing

/// `Routes.BatchCreate`: many routes as one write, all or nothing.
@Suite(.serialized) struct BatchCreateTests {
    private static func route(_ id: String, _ path: String, since: String = "5.0") -> [String: Any] {
        ["id": id, "pattern": ["path": path], "platforms": ["ios": ["since": since]]]
    }

    private static func routeIDs(_ server: TestRegistryServer) async throws -> [String] {
        var ids: [String] = []
        var token = ""
        repeat {
            let page = try await server.result("Routes.List", ["app": "badoo", "pageSize": 1000, "pageToken": token])
            ids += page.array("routes").compactMap { ($0 as? [String: Any])?.string("id") }
            token = page.string("nextPageToken") ?? ""
        } while !token.isEmpty
        return ids
    }

    private static func aasaRevision(_ server: TestRegistryServer) async throws -> Int? {
        try await server.result("Associations.Get", ["host": "m.badoo.com"]).int("revision")
    }

    private static func auditCount(_ server: TestRegistryServer) async throws -> Int {
        try await server.result("Audit.List", ["pageSize": 1000]).array("entries").count
    }

    private static func violatedFields(_ response: [String: Any]) -> [String] {
        let error = response["error"] as? [String: Any]
        return (error?.object("data")?.array("details") ?? []).compactMap { ($0 as? [String: Any])?.string("field") }
    }

    @Test func routesLandInOrderBeforeTheNamedRouteWithOneRevisionAndOneAuditEntry() async throws {
        let server = try TestRegistryServer(suite: "batch_create")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let revision = try #require(try await Self.aasaRevision(server))
        let audit = try await Self.auditCount(server)

        let result = try await server.result(
            "Routes.BatchCreate",
            [
                "app": "badoo", "before": "lookalikes",
                "routes": [Self.route("chat", "/c/*"), Self.route("offer", "/o/*"), Self.route("event", "/e/*")],
            ])
        let created = result.array("routes").compactMap { $0 as? [String: Any] }
        #expect(created.map { $0.string("id") } == ["chat", "offer", "event"])
        #expect(created.map { $0.int("position") } == [1, 2, 3])
        #expect(created.map { $0.string("name") } == ["chat", "offer", "event"].map { "apps/badoo/routes/\($0)" })
        #expect(try await Self.routeIDs(server) == ["profile", "chat", "offer", "event", "lookalikes"])

        #expect(try await Self.aasaRevision(server) == revision + 1)
        let document = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        #expect(componentPaths(try #require(document.object("document"))).contains("/o/*"))
        #expect(document.string("cause") == "Routes.BatchCreate badoo (3 routes)")

        #expect(try await Self.auditCount(server) == audit + 1)
        let entry = try #require(
            try await server.result("Audit.List", ["pageSize": 1]).array("entries").first as? [String: Any])
        #expect(entry.string("method") == "Routes.BatchCreate")
        #expect(entry.string("resource") == "apps/badoo/routes")

        let decision = try await server.result(
            "CanOpen.Check", ["app": "badoo", "platform": "ios", "version": "5.11.0", "url": "https://m.badoo.com/o/1"])
        #expect(decision.string("route") == "offer")

        let appended = try await server.result(
            "Routes.BatchCreate", ["app": "badoo", "routes": [Self.route("last", "/z/*")]])
        #expect((appended.array("routes").first as? [String: Any])?.int("position") == 5)
    }

    @Test func anyRefusalLeavesNothingBehindAndNamesTheRouteAtFault() async throws {
        let server = try TestRegistryServer(suite: "batch_refusals")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let routes = try await Self.routeIDs(server)
        let revision = try await Self.aasaRevision(server)
        let audit = try await Self.auditCount(server)
        let good = [Self.route("a", "/a/*"), Self.route("b", "/b/*")]

        let badPattern = try await server.call(
            "Routes.BatchCreate",
            ["app": "badoo", "routes": good + [["id": "c", "pattern": ["path": "/c/$(lang"]]]])
        #expect(errorCode(badPattern) == 3)
        #expect(Self.violatedFields(badPattern) == ["routes[2].pattern.path"])

        let taken = try await server.call(
            "Routes.BatchCreate", ["app": "badoo", "routes": good + [Self.route("profile", "/p/*")]])
        #expect(errorCode(taken) == 6)
        #expect(Self.violatedFields(taken) == ["routes[2].id"])

        let repeated = try await server.call(
            "Routes.BatchCreate", ["app": "badoo", "routes": good + [Self.route("a", "/a2/*")]])
        #expect(errorCode(repeated) == 3)
        #expect(Self.violatedFields(repeated) == ["routes[2].id"])

        let typo = try await server.call(
            "Routes.BatchCreate", ["app": "badoo", "routes": good + [["id": "t", "pattern": ["paht": "/t/*"]]]])
        #expect(errorCode(typo) == -32602)
        #expect(Self.violatedFields(typo) == ["routes[2].pattern.paht"])

        let empty = try await server.call("Routes.BatchCreate", ["app": "badoo", "routes": [[String: Any]]()])
        #expect(errorCode(empty) == -32602)
        #expect(Self.violatedFields(empty) == ["routes"])

        let ghost = try await server.call("Routes.BatchCreate", ["app": "badoo", "routes": good, "before": "ghost"])
        #expect(errorCode(ghost) == 5)
        #expect(Self.violatedFields(ghost) == ["before"])

        let noApp = try await server.call("Routes.BatchCreate", ["app": "ghost", "routes": good])
        #expect(errorCode(noApp) == 5)

        let anonymous = try await server.call("Routes.BatchCreate", ["app": "badoo", "routes": good], token: nil)
        #expect(errorCode(anonymous) == 16)

        #expect(try await Self.routeIDs(server) == routes)
        #expect(try await Self.aasaRevision(server) == revision)
        #expect(try await Self.auditCount(server) == audit)
    }

    /// The batch writes its rows in bulk, the single create one statement at a time: every field must come back
    /// the same either way.
    @Test func aBatchStoresEveryFieldAsSeparateCreatesDo() async throws {
        let server = try TestRegistryServer(suite: "batch_fields")
        defer { server.shutdown() }
        let routes: [[String: Any]] = [
            ["id": "plain", "pattern": ["path": "/p/*"], "platforms": ["ios": ["since": "5.0"]]],
            [
                "id": "full",
                "pattern": [
                    "path": "/f/?*", "query": ["ref": "?*", "utm": "*"], "fragment": "top", "caseSensitive": false,
                    "percentEncoded": false,
                ],
                "platforms": ["ios": ["since": "5.1.2", "until": "6"], "android": ["since": "512"]],
                "comment": "every field", "domains": ["m.fields.example"],
            ],
            ["id": "query-text", "pattern": ["path": "/q", "query": "a=*"], "platforms": ["android": ["since": "1"]]],
            ["id": "help", "pattern": ["path": "/help/*"], "action": "exclude"],
            [
                "id": "offer", "pattern": ["scheme": "fields", "path": "/offer/*"],
                "platforms": ["ios": ["since": "5.0"]], "webFallback": "https://m.fields.example/offer/$(path)",
            ],
        ]
        var listed: [String: [[String: Any]]] = [:]
        for app in ["one-by-one", "batched"] {
            _ = try await server.result(
                "Apps.Create",
                [
                    "app": [
                        "id": app, "ios": ["appIds": ["ABCDE12345.com.fields.\(app)"]], "schemes": ["fields"],
                        "android": [
                            "packageName": "com.fields.app\(app.count)",
                            "sha256CertFingerprints": [String(repeating: "AB:", count: 31) + "AB"],
                        ],
                    ]
                ])
        }
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "m.fields.example", "apps": ["one-by-one", "batched"]]])
        for route in routes { _ = try await server.result("Routes.Create", ["app": "one-by-one", "route": route]) }
        _ = try await server.result("Routes.BatchCreate", ["app": "batched", "routes": routes])
        let perApp: Set = ["name", "app", "etag", "createTime", "updateTime"]
        for app in ["one-by-one", "batched"] {
            listed[app] = try await server.result("Routes.List", ["app": app]).array("routes").compactMap {
                ($0 as? [String: Any])?.filter { !perApp.contains($0.key) }
            }
        }
        #expect(listed["batched"]?.count == routes.count)
        #expect(jsonText(listed["batched"] ?? []) == jsonText(listed["one-by-one"] ?? []))
    }

    /// Apple reads at most 128 KB: a batch that would pass it is refused whole, where separate creates would
    /// have stopped halfway with the file at the limit.
    @Test func aBatchThatWouldPassTheSizeLimitIsRefusedWhole() async throws {
        let server = try TestRegistryServer(suite: "batch_size")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let routes = try await Self.routeIDs(server)
        let padding = String(repeating: "p", count: 100)
        let many = (0..<1500).map { Self.route("bulk-\($0)", "/bulk/\($0)/\(padding)") }
        let refused = try await server.call("Routes.BatchCreate", ["app": "badoo", "routes": many])
        #expect(errorCode(refused) == 9)
        #expect(try await Self.routeIDs(server) == routes)

        // The same routes for a version that is not live yet stay out of the file, so they fit.
        let later = (0..<1500).map { Self.route("bulk-\($0)", "/bulk/\($0)/\(padding)", since: "9.0") }
        let accepted = try await server.result("Routes.BatchCreate", ["app": "badoo", "routes": later])
        #expect(accepted.array("routes").count == 1500)
        #expect(try await Self.routeIDs(server).count == routes.count + 1500)
    }
}
