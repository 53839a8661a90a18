import Foundation
import RouteCore
import RouteStore
import Testing

/// The manifest marker of migration 0010: set by `manage`, a new etag only when the marker changes.
@Suite("Route management marker")
struct RouteManagementTests {
    let fixture: StoreTestDatabase
    let routes = RouteRepository()

    init() throws {
        fixture = try StoreTestDatabase(suite: "route_management")
        try fixture.tx { tx in
            _ = try AppRepository().create(Fixtures.app(), in: tx)
            _ = try routes.create(Fixtures.route("profile", path: "/u/*"), app: "badoo", in: tx)
            _ = try routes.create(Fixtures.route("hand", path: "/h/*"), app: "badoo", in: tx)
        }
    }

    private func etag(_ id: String) throws -> String? {
        try fixture.tx { try routes.get(app: "badoo", id: id, in: $0) }?.etag
    }

    @Test func manageMarksOnlyTheNamedRoutesAndChangesEtagsOnlyWhenTheMarkerChanges() throws {
        #expect(try fixture.tx { try routes.management(app: "badoo", in: $0) }.isEmpty)
        let before = try etag("profile")
        try fixture.tx { try routes.manage(app: "badoo", ids: ["profile"], source: "abc123", in: $0) }
        let marked = try fixture.tx { try routes.management(app: "badoo", in: $0) }
        #expect(marked.keys.sorted() == ["profile"])
        #expect(marked["profile"]?.source == "abc123")
        #expect(try fixture.tx { try routes.management(app: "badoo", id: "hand", in: $0) } == nil)
        let adopted = try etag("profile")
        #expect(adopted != before)

        try fixture.tx { try routes.manage(app: "badoo", ids: ["profile"], source: "abc123", in: $0) }
        #expect(try etag("profile") == adopted, "the same source again writes nothing")
        try fixture.tx { try routes.manage(app: "badoo", ids: ["profile"], source: nil, in: $0) }
        #expect(try etag("profile") != adopted)
        #expect(try fixture.tx { try routes.management(app: "badoo", id: "profile", in: $0) }?.source == nil)
    }
}
