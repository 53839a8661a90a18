import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("App repository")
struct AppRepositoryTests {
    let fixture: StoreTestDatabase
    let apps = AppRepository()

    init() throws { fixture = try StoreTestDatabase(suite: "apps") }

    @Test func createGetRoundTripsEveryField() throws {
        var app = Fixtures.app()
        app.ios?.webcredentials = true
        app.ios?.appClips = ["ABCDE12345.com.badoo.Badoo.Clip"]
        app.fallback = FallbackPolicy(queryItem: "fb", value: "yes")
        app.defaults = MatchDefaults(caseSensitive: false)
        let created = try fixture.tx { try apps.create(app, in: $0) }
        #expect(created.value == app)
        let fetched = try #require(try fixture.tx { try apps.get("badoo", in: $0) })
        #expect(fetched == created)
        let bare = App(id: "bare")
        #expect(try fixture.tx { try apps.create(bare, in: $0) }.value == bare)
        #expect(try fixture.tx { try apps.get("missing", in: $0) } == nil)
    }

    @Test func duplicateIdIsAlreadyExists() throws {
        try fixture.tx { _ = try apps.create(Fixtures.app(), in: $0) }
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.create(Fixtures.app(), in: $0) }
        }
        #expect(error.code == .alreadyExists)
        #expect(error.resource == .app("badoo"))
    }

    @Test func invalidIdIsRefusedByTheSchema() throws {
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.create(App(id: "Bad Id"), in: $0) }
        }
        #expect(error.sqlState == .checkViolation)
    }

    @Test func updateWithTheCurrentEtagSucceedsAndAStaleOneIsAborted() throws {
        let created = try fixture.tx { try apps.create(Fixtures.app(), in: $0) }
        var changed = created.value
        changed.displayName = "Badoo 2"
        changed.ios = nil
        let updated = try fixture.tx { try apps.update(changed, expectedEtag: created.etag, in: $0) }
        #expect(updated.value == changed)
        #expect(updated.etag != created.etag)
        #expect(updated.updateTime >= created.updateTime && updated.createTime == created.createTime)
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.update(created.value, expectedEtag: created.etag, in: $0) }
        }
        #expect(stale.code == .stale)
        let garbage = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.update(created.value, expectedEtag: "not-an-etag", in: $0) }
        }
        #expect(garbage.code == .stale)
        let missing = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.update(App(id: "nope"), expectedEtag: nil, in: $0) }
        }
        #expect(missing.code == .notFound)
        #expect(try fixture.tx { try apps.get("badoo", in: $0) }?.value.displayName == "Badoo 2")
    }

    @Test func listPagesInIdOrder() throws {
        try fixture.tx { tx in
            for id in ["delta", "alpha", "echo", "charlie", "bravo"] { _ = try apps.create(App(id: id), in: tx) }
        }
        var ids: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try fixture.tx { try apps.list(PageRequest(pageSize: 2, pageToken: token), in: $0) }
            ids += page.items.map(\.value.id)
            token = page.nextPageToken
            pages += 1
        } while token != nil
        #expect(ids == ["alpha", "bravo", "charlie", "delta", "echo"])
        #expect(pages == 3)
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.list(PageRequest(pageToken: "%%%"), in: $0) }
        }
        #expect(error.code == .badPageToken)
    }

    @Test func deleteChecksTheEtagAndDependents() throws {
        let created = try fixture.tx { try apps.create(Fixtures.app(), in: $0) }
        try fixture.tx { _ = try DomainRepository().create(Domain(host: "badoo.com", apps: ["badoo"]), in: $0) }
        let blocked = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.delete("badoo", expectedEtag: created.etag, in: $0) }
        }
        #expect(blocked.sqlState == .foreignKeyViolation)
        try fixture.tx { _ = try DomainRepository().delete("badoo.com", expectedEtag: nil, in: $0) }
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx { try apps.delete("badoo", expectedEtag: "999", in: $0) }
        }
        #expect(stale.code == .stale)
        let deleted = try fixture.tx { try apps.delete("badoo", expectedEtag: created.etag, in: $0) }
        #expect(deleted.value == created.value)
        #expect(try fixture.tx { try apps.get("badoo", in: $0) } == nil)
    }
}
