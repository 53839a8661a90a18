import Foundation
import RouteCore
import RouteStore
import Testing

/// Migration 0008: deleted links no longer hold their domain, live ones still do (with the foreign key's
/// SQLSTATE, which the previous release maps as before), and a deleted code stays taken.
@Suite("Deleted links and their domain")
struct DeletedLinksTests {
    let fixture: StoreTestDatabase
    let domains = DomainRepository()
    let links = LinkRepository()
    static let link = ShortLink(domain: "go.badoo.com", code: "promo", target: "https://m.badoo.com/u/1")

    init() throws {
        fixture = try StoreTestDatabase(suite: "deleted_links")
        try fixture.tx { tx in
            _ = try AppRepository().create(Fixtures.app("badoo"), in: tx)
            _ = try domains.create(Domain(host: "go.badoo.com", apps: ["badoo"], links: true), in: tx)
            _ = try links.create(Self.link, app: "badoo", by: "test", in: tx)
        }
    }

    @Test func aLiveLinkHoldsItsDomain() throws {
        #expect(try fixture.tx { try links.liveCount(domain: "go.badoo.com", in: $0) } == 1)
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try domains.delete("go.badoo.com", expectedEtag: nil, in: $0) }
        }
        #expect(error.sqlState == .foreignKeyViolation)
    }

    @Test func aDeletedLinkDoesNotAndItsCodeStaysTaken() throws {
        try fixture.tx { _ = try links.delete(domain: "go.badoo.com", code: "promo", expectedEtag: nil, in: $0) }
        #expect(try fixture.tx { try links.liveCount(domain: "go.badoo.com", in: $0) } == 0)
        try fixture.tx { _ = try domains.delete("go.badoo.com", expectedEtag: nil, in: $0) }
        try fixture.tx { _ = try domains.create(Domain(host: "go.badoo.com", apps: ["badoo"], links: true), in: $0) }
        let taken = try #require(throws: StoreError.self) {
            try fixture.tx { try links.create(Self.link, app: "badoo", by: "test", in: $0) }
        }
        #expect(taken.code == .alreadyExists)
        #expect(try fixture.tx { try links.get(domain: "go.badoo.com", code: "promo", in: $0) }?.deleted == true)
    }

    @Test func aLiveLinkNeedsItsDomain() throws {
        var elsewhere = Self.link
        elsewhere.domain = "nowhere.badoo.com"
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try links.create(elsewhere, app: "badoo", by: "test", in: $0) }
        }
        #expect(error.sqlState == .foreignKeyViolation)
    }
}
