import Foundation
import RegistryTesting
import Testing

/// ARCHITECTURE.md "The reference scenario" end to end: the real HTTP server, a real PostgreSQL, every step asserted.
@Suite(.serialized) struct BadooScenarioTests {
    @Test func theLookalikesStory() async throws {
        let server = try TestRegistryServer(suite: "badoo")
        defer { server.shutdown() }

        // 1. App and domains.
        let app = try await server.result(
            "Apps.Create",
            ["app": ["id": "badoo", "displayName": "Badoo", "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"]]]])
        #expect(app.string("name") == "apps/badoo")
        #expect(app.string("etag") != nil)
        for host in ["badoo.com", "m.badoo.com"] {
            _ = try await server.result("Domains.Create", ["domain": ["host": host, "apps": ["badoo"]]])
        }

        // 2. profile since 5.0, help excluded (before profile, so the exclusion guards it), publish 5.11.0.
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": ["id": "profile", "pattern": ["path": "/u/*"], "platforms": ["ios": ["since": "5.0"]]],
            ])
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo", "before": "profile",
                "route": ["id": "help", "pattern": ["path": "/help/*"], "action": "exclude"],
            ])
        let first = try await server.result(
            "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
        #expect(first.object("release")?.string("state") == "live")

        // 3. The AASA: marker exclusion first, /help/* excluded, /u/*; no /l/a/*.
        let revision1 = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        let paths1 = componentPaths(revision1.object("document") ?? [:])
        #expect(paths1 == ["!?{\"ul_fallback\":\"?*\"}", "!/help/*", "/u/*"])
        let (bytes, response) = try await server.get("/.well-known/apple-app-site-association", host: "M.Badoo.com:443")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(response.value(forHTTPHeaderField: "ETag") == revision1.string("etag"))
        let served = try JSONSerialization.jsonObject(with: bytes) as? [String: Any] ?? [:]
        #expect(componentPaths(served) == paths1)
        let (_, notModified) = try await server.get(
            "/.well-known/apple-app-site-association", host: "m.badoo.com", ifNoneMatch: revision1.string("etag"))
        #expect(notModified.statusCode == 304)

        // 4. lookalikes since 5.12.0: no live version handles it, so the AASA does not change.
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": [
                    "id": "lookalikes", "pattern": ["path": "/l/a/*"], "platforms": ["ios": ["since": "5.12.0"]],
                ],
            ])
        let unchanged = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        #expect(unchanged.int("revision") == revision1.int("revision"))
        #expect(unchanged.string("etag") == revision1.string("etag"))

        // 5. Publish 5.12.0: a new revision with /l/a/*; 5.11.0 falls back, 5.12.0 opens.
        let second = try await server.result(
            "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        let changed = second.array("revisions").compactMap { $0 as? [String: Any] }
            .first { $0.string("host") == "m.badoo.com" && $0.string("kind") == "aasa" }
        #expect(changed?["changed"] as? Bool == true)
        let revision2 = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        #expect(revision2.int("revision") == (revision1.int("revision") ?? 0) + 1)
        #expect(componentPaths(revision2.object("document") ?? [:]).contains("/l/a/*"))
        #expect(revision2.string("cause") == "Releases.Publish ios 5.12.0")

        let old = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.11.0", "url": "https://m.badoo.com/l/a/42"],
            token: nil)
        #expect(old.string("decision") == "open_in_browser")
        #expect(old.string("reason") == "unsupported_version")
        #expect(old.string("fallbackUrl") == "https://m.badoo.com/l/a/42?ul_fallback=1")
        #expect(old.string("supportedSince") == "5.12.0")
        let new = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.12.0", "url": "https://m.badoo.com/l/a/42"],
            token: nil)
        #expect(new.string("decision") == "open_in_app")
        #expect(new.string("route") == "lookalikes")

        // 6. 5.12.0 crashes on lookalikes: switch it off; 5.12.0 falls back, the AASA drops /l/a/*.
        _ = try await server.result(
            "Routes.SwitchOff",
            [
                "app": "badoo", "route": "lookalikes", "platform": "ios", "versions": ["5.12.0"],
                "reason": "crash in 5.12.0",
            ])
        let killed = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.12.0", "url": "https://m.badoo.com/l/a/42"],
            token: nil)
        #expect(killed.string("decision") == "open_in_browser")
        #expect(killed.string("reason") == "switched_off")
        #expect(killed.string("fallbackUrl") == "https://m.badoo.com/l/a/42?ul_fallback=1")
        let revision3 = try await server.result("Associations.Get", ["host": "m.badoo.com"])
        #expect(revision3.int("revision") == (revision2.int("revision") ?? 0) + 1)
        #expect(!componentPaths(revision3.object("document") ?? [:]).contains("/l/a/*"))
        let diff = try await server.result(
            "Associations.Diff",
            [
                "host": "m.badoo.com", "fromRevision": revision2.int("revision")!,
                "toRevision": revision3.int("revision")!,
            ])
        #expect(diff.array("added").isEmpty)
        #expect(diff.array("changed").isEmpty)
        let removed = diff.array("removed").compactMap { ($0 as? [String: Any])?.object("rule")?.string("/") }
        #expect(removed == ["/l/a/*"])

        // 7. Retire 5.11.0; the audit log shows every step and its author.
        let retired = try await server.result(
            "Releases.Retire", ["app": "badoo", "platform": "ios", "version": "5.11.0"])
        #expect(retired.object("release")?.string("state") == "retired")
        let audit = try await server.result("Audit.List", ["pageSize": 100])
        let entries = audit.array("entries").compactMap { $0 as? [String: Any] }
        let methods = entries.compactMap { $0.string("method") }.reversed()
        #expect(
            Array(methods) == [
                "Apps.Create", "Domains.Create", "Domains.Create", "Routes.Create", "Routes.Create", "Releases.Publish",
                "Routes.Create", "Releases.Publish", "Routes.SwitchOff", "Releases.Retire",
            ])
        #expect(entries.allSatisfy { $0.string("actor") == "bootstrap-admin" })
    }
}
