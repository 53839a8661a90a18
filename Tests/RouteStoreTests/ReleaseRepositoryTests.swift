import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Release repository")
struct ReleaseRepositoryTests {
    let fixture: StoreTestDatabase
    let releases = ReleaseRepository()

    init() throws {
        fixture = try StoreTestDatabase(suite: "releases")
        try fixture.tx { _ = try AppRepository().create(Fixtures.app(), in: $0) }
    }

    @Test func upsertDraftIsIdempotentAndVersionsCompareNumerically() throws {
        let first = try fixture.tx {
            try releases.upsertDraft(app: "badoo", platform: .ios, version: Fixtures.version("5.12"), in: $0)
        }
        #expect(first.created && first.release.release.state == .draft)
        let again = try fixture.tx {
            try releases.upsertDraft(app: "badoo", platform: .ios, version: Fixtures.version("5.12.0"), in: $0)
        }
        #expect(!again.created && again.release == first.release)
        let unknownApp = try #require(throws: StoreError.self) {
            try fixture.tx {
                try releases.upsertDraft(app: "ghost", platform: .ios, version: Fixtures.version("1"), in: $0)
            }
        }
        #expect(unknownApp.sqlState == .foreignKeyViolation)
    }

    @Test func stateChangesStampTimesAndBumpTheEtag() throws {
        let draft = try fixture.tx {
            try releases.upsertDraft(app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), in: $0)
        }
        let live = try fixture.tx {
            try releases.setState(app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), to: .live, in: $0)
        }
        #expect(live.release.state == .live && live.publishTime != nil && live.retireTime == nil)
        #expect(live.etag != draft.release.etag)
        let stale = try #require(throws: StoreError.self) {
            try fixture.tx {
                try releases.setState(
                    app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), to: .retired,
                    expectedEtag: draft.release.etag, in: $0)
            }
        }
        #expect(stale.code == .stale)
        let retired = try fixture.tx {
            try releases.setState(
                app: "badoo", platform: .ios, version: Fixtures.version("5.11.0"), to: .retired,
                expectedEtag: live.etag, in: $0)
        }
        #expect(
            retired.release.state == .retired && retired.retireTime != nil && retired.publishTime == live.publishTime)
        let missing = try #require(throws: StoreError.self) {
            try fixture.tx {
                try releases.setState(app: "badoo", platform: .ios, version: Fixtures.version("9"), to: .live, in: $0)
            }
        }
        #expect(missing.code == .notFound)
    }

    @Test func listFiltersAndPagesNewestVersionFirst() throws {
        try fixture.tx { tx in
            for text in ["5.10", "5.9", "5.12.1", "5.12"] {
                _ = try releases.upsertDraft(app: "badoo", platform: .ios, version: Fixtures.version(text), in: tx)
            }
            _ = try releases.upsertDraft(app: "badoo", platform: .android, version: Fixtures.version("51200"), in: tx)
            _ = try releases.setState(
                app: "badoo", platform: .ios, version: Fixtures.version("5.12"), to: .live, in: tx)
        }
        let ios = try fixture.tx { try releases.list(app: "badoo", platform: .ios, in: $0) }
        #expect(ios.items.map(\.release.version.description) == ["5.12.1", "5.12", "5.10", "5.9"])
        let live = try fixture.tx { try releases.list(app: "badoo", state: .live, in: $0) }
        #expect(live.items.map(\.release.version.description) == ["5.12"])
        var seen: [String] = []
        var token: String?
        repeat {
            let page = try fixture.tx {
                try releases.list(app: "badoo", PageRequest(pageSize: 2, pageToken: token), in: $0)
            }
            seen += page.items.map { "\($0.release.platform.rawValue) \($0.release.version)" }
            token = page.nextPageToken
        } while token != nil
        #expect(seen == ["android 51200", "ios 5.12.1", "ios 5.12", "ios 5.10", "ios 5.9"])
    }
}
