import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Route repository")
struct RouteRepositoryTests {
    let fixture: StoreTestDatabase
    let routes = RouteRepository()

    init() throws {
        fixture = try StoreTestDatabase(suite: "routes")
        try fixture.tx { _ = try AppRepository().create(Fixtures.app(), in: $0) }
    }

    private func order() throws -> [String] {
        try fixture.tx { try routes.all(app: "badoo", in: $0) }.map(\.value.id)
    }

    @Test func everyPatternComponentAndRangeRoundTrips() throws {
        let full = Route(
            id: "search",
            pattern: URLPattern(
                scheme: "badoo", path: "/s/*", query: .items(["q": "?*", "lang": "$(lang)"]), fragment: "top",
                caseSensitive: false, percentEncoded: true),
            action: .open,
            platforms: [
                .ios: VersionRange(since: Fixtures.version("5.12"), until: Fixtures.version("6.0.0.1")),
                .android: VersionRange(since: Fixtures.version("51200")),
            ],
            switchedOff: [.ios: [SwitchedOff(version: Fixtures.version("5.13.1"), reason: "crash")]],
            domains: ["m.badoo.com"], webFallback: "https://badoo.com{path}", comment: "search results")
        let stringQuery = Route(id: "legacy", pattern: URLPattern(path: "/l", query: .string("a=*")))
        let created = try fixture.tx { tx in
            (try routes.create(full, app: "badoo", in: tx), try routes.create(stringQuery, app: "badoo", in: tx))
        }
        #expect(created.0.value == full)
        #expect(created.1.value == stringQuery)
        #expect(try fixture.tx { try routes.get(app: "badoo", id: "search", in: $0) } == created.0)
        // The text as written survives next to the padded key.
        #expect(created.0.value.platforms[.ios]?.since.description == "5.12")
    }

    @Test func newRoutesGoLastOrBeforeAnother() throws {
        try fixture.tx { tx in
            _ = try routes.create(Fixtures.route("profile", path: "/u/*"), app: "badoo", in: tx)
            _ = try routes.create(Fixtures.route("help", path: "/help/*", since: nil), app: "badoo", in: tx)
            _ = try routes.create(Fixtures.route("first", path: "/"), app: "badoo", before: "profile", in: tx)
            _ = try routes.create(Fixtures.route("middle", path: "/m"), app: "badoo", before: "help", in: tx)
        }
        #expect(try order() == ["first", "profile", "middle", "help"])
        let missing = try #require(throws: StoreError.self) {
            try fixture.tx { try routes.create(Fixtures.route("x", path: "/x"), app: "badoo", before: "ghost", in: $0) }
        }
        #expect(missing.code == .notFound)
        let duplicate = try #require(throws: StoreError.self) {
            try fixture.tx { try routes.create(Fixtures.route("help", path: "/h"), app: "badoo", in: $0) }
        }
        #expect(duplicate.code == .alreadyExists)
        let page = try fixture.tx { try routes.list(app: "badoo", PageRequest(pageSize: 3), in: $0) }
        #expect(page.items.map(\.value.id) == ["first", "profile", "middle"])
        let rest = try fixture.tx {
            try routes.list(app: "badoo", PageRequest(pageSize: 3, pageToken: page.nextPageToken), in: $0)
        }
        #expect(rest.items.map(\.value.id) == ["help"] && rest.nextPageToken == nil)
    }

    @Test func reorderTakesAPermutationOnly() throws {
        try fixture.tx { tx in
            for id in ["a", "b", "c"] {
                _ = try routes.create(Fixtures.route(id, path: "/\(id)"), app: "badoo", in: tx)
            }
        }
        let reordered = try fixture.tx { try routes.reorder(app: "badoo", ids: ["c", "a", "b"], in: $0) }
        #expect(reordered.map(\.value.id) == ["c", "a", "b"])
        #expect(try order() == ["c", "a", "b"])
        for bad in [["a", "b"], ["a", "b", "b"], ["a", "b", "c", "d"]] {
            let error = try #require(throws: StoreError.self) {
                try fixture.tx { try routes.reorder(app: "badoo", ids: bad, in: $0) }
            }
            #expect(error.code == .incompleteOrder)
        }
        #expect(try order() == ["c", "a", "b"])
    }

    @Test func updateReplacesContentKeepsPositionAndChecksTheEtag() throws {
        let created = try fixture.tx { tx in
            _ = try routes.create(Fixtures.route("a", path: "/a"), app: "badoo", in: tx)
            return try routes.create(Fixtures.route("b", path: "/b"), app: "badoo", in: tx)
        }
        var changed = created.value
        changed.pattern.path = "/b/*"
        changed.platforms = [.android: VersionRange(since: Fixtures.version("3"))]
        changed.comment = "now android only"
        let updated = try fixture.tx { try routes.update(changed, app: "badoo", expectedEtag: created.etag, in: $0) }
        #expect(updated.value == changed && updated.etag != created.etag)
        #expect(try order() == ["a", "b"])
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx { try routes.update(created.value, app: "badoo", expectedEtag: created.etag, in: $0) }
        }
        #expect(stale.code == .stale)
    }

    @Test func switchOffAndOnChangeTheRouteAndItsEtag() throws {
        let created = try fixture.tx {
            try routes.create(Fixtures.route("l", path: "/l/a/*", since: "5.12"), app: "badoo", in: $0)
        }
        let off = try fixture.tx {
            try routes.switchOff(
                app: "badoo", id: "l", platform: .ios,
                versions: [Fixtures.version("5.12.0"), Fixtures.version("5.13")],
                reason: "crash", in: $0)
        }
        #expect(off.etag != created.etag)
        #expect(off.value.isSwitchedOff(.ios, Fixtures.version("5.12")))
        #expect(off.value.switchedOff[.ios]?.map(\.reason) == ["crash", "crash"])
        let again = try fixture.tx {
            try routes.switchOff(
                app: "badoo", id: "l", platform: .ios, versions: [Fixtures.version("5.12")], reason: "still", in: $0)
        }
        #expect(again.value.switchedOff[.ios]?.count == 2)
        let on = try fixture.tx {
            try routes.switchOn(app: "badoo", id: "l", platform: .ios, versions: [Fixtures.version("5.12.0.0")], in: $0)
        }
        #expect(on.value.switchedOff[.ios]?.map(\.version) == [Fixtures.version("5.13")])
        #expect(on.value.handles(.ios, Fixtures.version("5.12")))
        let missing = try #require(throws: StoreError.self) {
            try fixture.tx { try routes.switchOn(app: "badoo", id: "ghost", platform: .ios, versions: [], in: $0) }
        }
        #expect(missing.code == .notFound)
    }

    @Test func deleteRemovesTheRouteAndItsDetails() throws {
        let created = try fixture.tx { try routes.create(Fixtures.route("a", path: "/a"), app: "badoo", in: $0) }
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx { try routes.delete(app: "badoo", id: "a", expectedEtag: "0", in: $0) }
        }
        #expect(stale.code == .stale)
        #expect(
            try fixture.tx { try routes.delete(app: "badoo", id: "a", expectedEtag: created.etag, in: $0) } == created)
        #expect(try order().isEmpty)
        let leftovers = try fixture.database.withConnection {
            try $0.query("SELECT count(*) AS n FROM route_platforms")[0].int("n")
        }
        #expect(leftovers == 0)
    }
}
