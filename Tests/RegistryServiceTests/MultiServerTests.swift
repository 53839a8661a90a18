import Foundation
import RegistryTesting
import Testing

/// Servers are stateless: a second server on the same database learns of a publish through LISTEN/NOTIFY.
@Suite(.serialized) struct MultiServerTests {
    @Test func secondServerServesTheNewETagWithinOneSecond() async throws {
        let first = try TestRegistryServer(suite: "multi")
        defer { first.shutdown() }
        let second = try TestRegistryServer(suite: "multi", database: first.database)
        defer { second.stop() }
        try await seedBadoo(first)
        #expect(
            try await eventually(within: .seconds(1)) {
                let (_, response) = try await second.get("/.well-known/apple-app-site-association", host: "m.badoo.com")
                return response.statusCode == 200
            })

        _ = try await first.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        let expected = try await first.result("Associations.Get", ["host": "m.badoo.com"]).string("etag")
        let start = ContinuousClock.now
        let caughtUp = try await eventually(within: .seconds(1)) {
            let (_, response) = try await second.get("/.well-known/apple-app-site-association", host: "m.badoo.com")
            return response.value(forHTTPHeaderField: "ETag") == expected
        }
        #expect(caughtUp, "second server still serves the old ETag after \(ContinuousClock.now - start)")
        let decision = try await second.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.12.0", "url": "https://m.badoo.com/l/a/1"],
            token: nil)
        #expect(decision.string("decision") == "open_in_app")
    }

    @Test func listenerCatchesUpAfterItsConnectionIsKilled() async throws {
        let first = try TestRegistryServer(suite: "multi_reconnect")
        defer { first.shutdown() }
        let second = try TestRegistryServer(suite: "multi_reconnect", database: first.database)
        defer { second.stop() }
        try await seedBadoo(first)
        // Cut every other session of this database (the second server's listener among them) and publish at
        // once, so the notification may be lost: the listener must catch up when it reconnects.
        try first.service.store.database.withConnection { connection in
            _ = try connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        }
        _ = try await first.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        let expected = try await first.result("Associations.Get", ["host": "m.badoo.com"]).string("etag")
        #expect(
            try await eventually(within: .seconds(10)) {
                let (_, response) = try await second.get("/.well-known/apple-app-site-association", host: "m.badoo.com")
                return response.value(forHTTPHeaderField: "ETag") == expected
            })
    }
}
