import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Audit and token repositories")
struct AuditAndTokenRepositoryTests {
    let fixture: StoreTestDatabase
    let audit = AuditRepository()
    let tokens = TokenRepository()

    init() throws { fixture = try StoreTestDatabase(suite: "audittokens") }

    private func hash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    @Test func auditIsNewestFirstPagedAndAppendOnly() throws {
        try fixture.tx { tx in
            for index in 1...3 {
                try audit.append(
                    actor: "alice", method: "Apps.Update", resource: "apps/badoo",
                    before: SQLJSON(json: Data(#"{"n":\#(index - 1)}"#.utf8)),
                    after: SQLJSON(json: Data(#"{"n":\#(index)}"#.utf8)),
                    requestID: "req-\(index)", in: tx)
            }
            try audit.append(
                actor: "bob", method: "Apps.Delete", resource: "apps/x", before: nil, after: nil, requestID: nil, in: tx
            )
        }
        let first = try fixture.tx { try audit.list(PageRequest(pageSize: 3), in: $0) }
        #expect(first.items.map(\.actor) == ["bob", "alice", "alice"])
        #expect(first.items[0].before == nil && first.items[0].requestID == nil)
        let after = try JSONDecoder().decode([String: Int].self, from: try #require(first.items[1].after))
        #expect(after == ["n": 3] && first.items[1].requestID == "req-3")
        let second = try fixture.tx { try audit.list(PageRequest(pageSize: 3, pageToken: first.nextPageToken), in: $0) }
        #expect(second.items.map(\.requestID) == ["req-1"] && second.nextPageToken == nil)
        for statement: SQLQuery in ["UPDATE audit SET actor = \("mallory")", "DELETE FROM audit"] {
            let error = try #require(throws: StoreError.self) { try fixture.tx { try $0.query(statement) } }
            #expect(error.sqlState == .objectNotInPrerequisiteState)
        }
    }

    @Test func tokensStoreOnlyTheHashAndCanBeRevoked() throws {
        let created = try fixture.tx {
            try tokens.create(id: "ci-bot", role: .releaser, secretSHA256: hash(1), displayName: "CI", in: $0)
        }
        #expect(created.role == .releaser && !created.isRevoked && created.displayName == "CI")
        #expect(try fixture.tx { try tokens.find(secretSHA256: hash(1), in: $0) } == created)
        #expect(try fixture.tx { try tokens.find(secretSHA256: hash(2), in: $0) } == nil)
        let duplicate = try #require(throws: StoreError.self) {
            try fixture.tx {
                try tokens.create(id: "ci-bot", role: .reader, secretSHA256: hash(3), displayName: nil, in: $0)
            }
        }
        #expect(duplicate.code == .alreadyExists)
        let shortHash = try #require(throws: StoreError.self) {
            try fixture.tx {
                try tokens.create(id: "short", role: .reader, secretSHA256: Data([1]), displayName: nil, in: $0)
            }
        }
        #expect(shortHash.sqlState == .checkViolation)
        try fixture.tx {
            _ = try tokens.create(id: "admin", role: .admin, secretSHA256: hash(4), displayName: nil, in: $0)
        }
        #expect(try fixture.tx { try tokens.list(in: $0) }.items.map(\.id) == ["admin", "ci-bot"])
        let revoked = try fixture.tx { try tokens.revoke("ci-bot", in: $0) }
        #expect(revoked.isRevoked)
        #expect(try fixture.tx { try tokens.revoke("ci-bot", in: $0) }.revokeTime == revoked.revokeTime)
        #expect(try fixture.tx { try tokens.find(secretSHA256: hash(1), in: $0) }?.isRevoked == true)
        let missing = try #require(throws: StoreError.self) { try fixture.tx { try tokens.revoke("ghost", in: $0) } }
        #expect(missing.code == .notFound)
        let columns = try fixture.database.withConnection { connection in
            try connection.query(
                "SELECT column_name FROM information_schema.columns WHERE table_name = \("tokens") ORDER BY column_name"
            ).map { try $0.string("column_name") }
        }
        // No column can hold a secret: only its hash, and since 0006 a token's scope, expiry and last use.
        #expect(
            columns == [
                "apps", "created_at", "display_name", "expires_at", "id", "last_used_at", "revoked_at", "role",
                "secret_sha256",
            ])
    }

    @Test func scopesExpiryAndLastUseAreStored() throws {
        let tokens = TokenRepository()
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let scoped = try fixture.tx {
            try tokens.create(
                id: "scoped", role: .releaser, secretSHA256: hash(7), displayName: "alpha ci", apps: ["alpha"],
                expiresAt: expiry, in: $0)
        }
        #expect(scoped.apps == ["alpha"] && scoped.expiresAt == expiry)
        let active = try fixture.tx { try tokens.active(in: $0) }
        #expect(
            active.values.first { $0.id == "scoped" }
                == ActiveToken(id: "scoped", role: .releaser, apps: ["alpha"], expiresAt: expiry))
        // A use is recorded in a batch, and a later batch with an older time does not move it back.
        let used = Date(timeIntervalSince1970: 1_900_000_000)
        try fixture.tx { try tokens.recordUses(["scoped": used, "ghost": used], in: $0) }
        try fixture.tx { try tokens.recordUses(["scoped": used.addingTimeInterval(-60)], in: $0) }
        #expect(try fixture.tx { try tokens.get("scoped", in: $0) }?.lastUsedAt == used)
        // Within a scope: only the tokens whose apps all lie in it (never an all-apps token).
        _ = try fixture.tx {
            try tokens.create(id: "everything", role: .reader, secretSHA256: hash(8), displayName: nil, in: $0)
        }
        let listed = try fixture.tx { try tokens.list(within: ["alpha", "beta"], in: $0) }.items.map(\.id)
        #expect(listed.contains("scoped") && !listed.contains("everything"))
        #expect(try fixture.tx { try tokens.list(within: ["beta"], in: $0) }.items.isEmpty)
    }
}
