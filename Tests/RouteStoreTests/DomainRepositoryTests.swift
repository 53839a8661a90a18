import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Domain repository")
struct DomainRepositoryTests {
    let fixture: StoreTestDatabase
    let domains = DomainRepository()

    init() throws {
        fixture = try StoreTestDatabase(suite: "domains")
        try fixture.tx { tx in
            for id in ["badoo", "bumble"] { _ = try AppRepository().create(Fixtures.app(id), in: tx) }
        }
    }

    @Test func createKeepsAppOrderAliasesAndVariables() throws {
        let main = Domain(
            host: "badoo.com", apps: ["bumble", "badoo"], defaults: MatchDefaults(percentEncoded: false),
            substitutionVariables: ["food": ["pizza", "burrito"]], legacyPaths: true)
        let created = try fixture.tx { try domains.create(main, in: $0) }
        #expect(created.value == main)
        let alias = Domain(host: "www.badoo.com", apps: [], aliasOf: "badoo.com")
        #expect(try fixture.tx { try domains.create(alias, in: $0) }.value == alias)
        #expect(try fixture.tx { try domains.get("badoo.com", in: $0) } == created)
        #expect(try fixture.tx { try domains.all(in: $0) }.map(\.value.host) == ["badoo.com", "www.badoo.com"])
    }

    @Test func referencesToMissingThingsAreFailedPreconditions() throws {
        for domain in [Domain(host: "a.com", apps: ["ghost"]), Domain(host: "b.com", apps: [], aliasOf: "nowhere.com")]
        {
            let error = try #require(throws: StoreError.self) { try fixture.tx { try domains.create(domain, in: $0) } }
            #expect(error.sqlState == .foreignKeyViolation)
        }
        #expect(try fixture.tx { try domains.all(in: $0) }.isEmpty)
    }

    @Test func duplicateHostIsAlreadyExists() throws {
        try fixture.tx { _ = try domains.create(Domain(host: "badoo.com", apps: ["badoo"]), in: $0) }
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try domains.create(Domain(host: "badoo.com", apps: []), in: $0) }
        }
        #expect(error.code == .alreadyExists)
    }

    @Test func updateReplacesAppsAndChecksTheEtag() throws {
        let created = try fixture.tx { try domains.create(Domain(host: "badoo.com", apps: ["badoo"]), in: $0) }
        var changed = created.value
        changed.apps = ["badoo", "bumble"]
        changed.legacyPaths = false
        let updated = try fixture.tx { try domains.update(changed, expectedEtag: created.etag, in: $0) }
        #expect(updated.value == changed)
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx { try domains.update(created.value, expectedEtag: created.etag, in: $0) }
        }
        #expect(stale.code == .stale)
        #expect(try fixture.tx { try domains.get("badoo.com", in: $0) }?.value.apps == ["badoo", "bumble"])
    }

    @Test func deleteIsBlockedByAnAliasAndListPages() throws {
        try fixture.tx { tx in
            _ = try domains.create(Domain(host: "badoo.com", apps: ["badoo"]), in: tx)
            _ = try domains.create(Domain(host: "www.badoo.com", apps: [], aliasOf: "badoo.com"), in: tx)
            _ = try domains.create(Domain(host: "m.badoo.com", apps: ["badoo"]), in: tx)
        }
        let blocked = try #require(throws: StoreError.self) {
            try fixture.tx { try domains.delete("badoo.com", expectedEtag: nil, in: $0) }
        }
        #expect(blocked.sqlState == .foreignKeyViolation)
        let first = try fixture.tx { try domains.list(PageRequest(pageSize: 2), in: $0) }
        #expect(first.items.map(\.value.host) == ["badoo.com", "m.badoo.com"])
        let second = try fixture.tx {
            try domains.list(PageRequest(pageSize: 2, pageToken: first.nextPageToken), in: $0)
        }
        #expect(second.items.map(\.value.host) == ["www.badoo.com"] && second.nextPageToken == nil)
        try fixture.tx { _ = try domains.delete("www.badoo.com", expectedEtag: nil, in: $0) }
        let missing = try #require(throws: StoreError.self) {
            try fixture.tx { try domains.delete("www.badoo.com", expectedEtag: nil, in: $0) }
        }
        #expect(missing.code == .notFound)
    }
}
