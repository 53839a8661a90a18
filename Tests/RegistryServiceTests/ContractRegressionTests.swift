import Foundation
import RegistryTesting
import Testing

/// Contract bugs found in review, each pinned by a test.
@Suite(.serialized) struct ContractRegressionTests {
    @Test func aLongPollSentAsANotificationHoldsNothing() async throws {
        let server = try TestRegistryServer(suite: "watch_notification")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let etag = try await server.result("Associations.Get", ["host": "m.badoo.com"]).string("etag")!
        let escaped = etag.replacingOccurrences(of: "\"", with: "\\\"")
        let body =
            #"{"jsonrpc":"2.0","method":"Associations.Watch","params":{"host":"m.badoo.com","ifNoneMatch":"\#(escaped)","timeoutMs":60000}}"#
        for _ in 0..<20 {
            let (_, response) = try await server.post(Data(body.utf8), token: nil)
            #expect(response.statusCode == 204)
        }
        #expect(server.service.snapshots.watcherCount == 0)
    }

    @Test func auditFilteredByResourcePagesWithoutGapsAndMatchesWholeNames() async throws {
        let server = try TestRegistryServer(suite: "audit_filter")
        defer { server.shutdown() }
        for app in ["app2", "app20"] { _ = try await server.result("Apps.Create", ["app": ["id": app]]) }
        for index in 1...4 {
            for app in ["app2", "app20"] {
                _ = try await server.result(
                    "Routes.Create", ["app": app, "route": ["id": "r\(index)", "pattern": ["path": "/r\(index)/*"]]])
            }
        }
        var seen: [String] = []
        var token = ""
        repeat {
            let page = try await server.result(
                "Audit.List", ["resource": "apps/app2", "pageSize": 2, "pageToken": token])
            seen += page.array("entries").compactMap { ($0 as? [String: Any])?.string("resource") }
            token = page.string("nextPageToken") ?? ""
        } while !token.isEmpty
        #expect(
            seen == [
                "apps/app2/routes/r4", "apps/app2/routes/r3", "apps/app2/routes/r2", "apps/app2/routes/r1", "apps/app2",
            ])
    }

    @Test func anAppWithReleasesCanBeDeletedOnceNoDomainListsIt() async throws {
        let server = try TestRegistryServer(suite: "delete_app")
        defer { server.shutdown() }
        try await seedBadoo(server)
        #expect(errorCode(try await server.call("Apps.Delete", ["app": "badoo"])) == 9)
        _ = try await server.result("Domains.Delete", ["host": "m.badoo.com"])
        #expect(errorCode(try await server.call("Apps.Delete", ["app": "badoo"])) == nil)
        #expect(errorCode(try await server.call("Apps.Get", ["app": "badoo"])) == 5)
        #expect(
            errorCode(try await server.call("Releases.Get", ["app": "badoo", "platform": "ios", "version": "5.11.0"]))
                == 5)
    }

    /// Route writes skip the rule-list lint (it costs more than the rest of a write on a large app); a publish
    /// must still report the findings of the rules as they are then, not as they were at an earlier lint.
    @Test func aPublishReportsRuleLintOfTheCurrentRoutes() async throws {
        let server = try TestRegistryServer(suite: "publish_lint")
        defer { server.shutdown() }
        try await seedBadoo(server)
        func shadowed(_ version: String) async throws -> [String] {
            let change = try await server.result(
                "Releases.Publish", ["app": "badoo", "platform": "ios", "version": version])
            return change.array("lint").compactMap { $0 as? [String: Any] }
                .filter { $0.string("code") == "shadowed_rule" }.compactMap { $0.string("route") }
        }
        #expect(try await shadowed("5.11.0") == [])
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": ["id": "me", "pattern": ["path": "/u/me"], "platforms": ["ios": ["since": "5.0"]]],
            ])
        #expect(try await shadowed("5.11.0") == ["me"])
        _ = try await server.result("Routes.Delete", ["app": "badoo", "route": "profile"])
        #expect(try await shadowed("5.11.0") == [])
    }

    /// A write reports the lint of its own app's domains: another team's findings are not its to act on, and
    /// carrying every domain's made each answer grow with the registry.
    @Test func aWriteReportsTheLintOfItsOwnAppsDomainsOnly() async throws {
        let server = try TestRegistryServer(suite: "lint_scope")
        defer { server.shutdown() }
        try await seedBadoo(server)
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": ["id": "me", "pattern": ["path": "/u/me"], "platforms": ["ios": ["since": "5.0"]]],
            ])
        _ = try await server.result(
            "Apps.Create", ["app": ["id": "other", "ios": ["appIds": ["ABCDE12345.com.example.other"]]]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "other.example", "apps": ["other"]]])
        func lintRoutes(_ app: String) async throws -> [String] {
            let change = try await server.result(
                "Releases.Publish", ["app": app, "platform": "ios", "version": "5.11.0"])
            return change.array("lint").compactMap { $0 as? [String: Any] }.compactMap { $0.string("route") }
        }
        #expect(try await lintRoutes("badoo").contains("me"))
        #expect(try await lintRoutes("other") == [])
    }

    @Test func onlyLiveReleasesCanBeRetired() async throws {
        let server = try TestRegistryServer(suite: "retire_draft")
        defer { server.shutdown() }
        try await seedBadoo(server)
        _ = try await server.result("Releases.Create", ["app": "badoo", "platform": "ios", "version": "6.0"])
        let draft = try await server.call("Releases.Retire", ["app": "badoo", "platform": "ios", "version": "6.0"])
        #expect(errorCode(draft) == 9)
        let live = try await server.result("Releases.Retire", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
        #expect(live.object("release")?.string("state") == "retired")
        let again = try await server.result(
            "Releases.Retire", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
        #expect(again.object("release")?.string("state") == "retired")
    }

    @Test func aDomainListingAnAppTwiceIsInvalid() async throws {
        let server = try TestRegistryServer(suite: "domain_dup")
        defer { server.shutdown() }
        _ = try await server.result("Apps.Create", ["app": ["id": "badoo"]])
        let response = try await server.call(
            "Domains.Create", ["domain": ["host": "x.example", "apps": ["badoo", "badoo"]]])
        let error = try #require(response["error"] as? [String: Any])
        // The document says uniqueItems: refused before decoding, as every rule of the document is.
        #expect(error.int("code") == -32602)
        let fields = (error.object("data")?.array("details") ?? []).compactMap {
            ($0 as? [String: Any])?.string("field")
        }
        #expect(fields == ["domain.apps[1]"])
    }
}
