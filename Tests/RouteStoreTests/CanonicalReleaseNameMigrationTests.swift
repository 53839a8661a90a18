import Foundation
import RouteCore
import RouteStore
import Testing

/// Migration 0002 respells the release names of audit entries written before versions were canonical, as
/// `Version.canonical` spells them, and leaves every other entry and field alone.
@Suite("Canonical release names migration")
struct CanonicalReleaseNameMigrationTests {
    @Test func storedAuditNamesAreRespelledOnce() throws {
        let fixture = try StoreTestDatabase(suite: "canonical_names", migrate: false)
        let all = try MigrationRunner.bundled().migrations
        let initial = try #require(all.first { $0.name == "0001_initial" })
        try MigrationRunner(migrations: [initial]).run(on: fixture.database)
        let spellings = [
            "apps/a/platforms/ios/releases/0", "apps/a/platforms/ios/releases/0.0",
            "apps/a/platforms/ios/releases/0.0.0",
            "apps/a/platforms/android/releases/51200", "apps/a/platforms/ios/releases/5.12.0.0",
            "apps/a/platforms/ios/releases/5.12.0.7", "apps/a/platforms/ios/releases/007.1", "apps/a/routes/r",
            "apps/a/platforms/ios/releases/not-a-version",
        ]
        try fixture.database.withConnection { connection in
            for name in spellings {
                try connection.query(
                    "INSERT INTO audit (actor, method, resource) VALUES ('t', 'Releases.Publish', \(name))")
            }
        }
        try MigrationRunner(migrations: all).run(on: fixture.database)
        let stored = try fixture.database.withConnection { connection in
            try connection.query("SELECT resource FROM audit ORDER BY id").map { try $0.string("resource") }
        }
        let expected = spellings.map { name in
            name.hasSuffix("not-a-version") ? name : ResourceName.canonical(filter: name)
        }
        #expect(stored == expected)
        #expect(Array(stored.prefix(3)) == Array(repeating: "apps/a/platforms/ios/releases/0.0.0", count: 3))
        #expect(stored[3] == "apps/a/platforms/android/releases/51200.0.0")
        #expect(stored[6] == "apps/a/platforms/ios/releases/7.1.0")
        // The log is append-only again afterwards.
        #expect(throws: (any Error).self) {
            try fixture.database.withConnection { connection in
                try connection.query("UPDATE audit SET actor = 'x'")
            }
        }
    }
}
