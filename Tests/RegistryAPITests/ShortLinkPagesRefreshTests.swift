import Foundation
import RegistryTesting
import Testing

@testable import RegistryAPI

/// `ShortLinkPages` keeps prepared answers per request thread (`VersionedMemo`) under the snapshot's install
/// count and the link index's version: a change to the link and a change to the snapshot each reach every
/// thread's next answer, against a real server over real HTTP.
@Suite(.serialized) struct ShortLinkPagesRefreshTests {
    typealias Serving = LinksServingTests

    /// Enough visits, each on a new connection, to fill the prepared answers of several request threads.
    static let visits = 12

    static func landings(_ server: TestRegistryServer) throws -> [String] {
        try (0..<visits).map { _ in
            let landing = try Serving.visit(server, "/fresh", agent: Serving.safari)
            #expect(landing.status == 200)
            return landing.text
        }
    }

    @Test func aLinkChangeAndASnapshotChangeEachRefreshThePage() async throws {
        let server = try TestRegistryServer(suite: "link_pages_refresh")
        defer { server.shutdown() }
        try await Serving.seed(server)
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "fresh", "target": "https://m.badoo.com/l/a/1"]])
        for text in try Self.landings(server) {
            #expect(text.contains("https://m.badoo.com/l/a/1") && text.contains("Open in Badoo"))
        }

        // The link changes: the snapshot does not, the link index's version does.
        var link = try await server.result("Links.Get", ["domain": "go.badoo.com", "code": "fresh"])
        link["target"] = "https://m.badoo.com/l/a/2"
        _ = try await server.result("Links.Update", ["link": link])
        for text in try Self.landings(server) {
            #expect(text.contains("https://m.badoo.com/l/a/2") && !text.contains("https://m.badoo.com/l/a/1"))
        }

        // The app changes: the link does not, the snapshot does.
        var app = try await server.result("Apps.Get", ["app": "badoo"])
        for output in ["name", "etag", "createTime", "updateTime", "aasaBudget"] { app[output] = nil }
        app["displayName"] = "Chatterbox"
        _ = try await server.result("Apps.Update", ["app": app])
        for text in try Self.landings(server) {
            #expect(text.contains("Open in Chatterbox") && !text.contains("Open in Badoo"))
            #expect(text.contains("https://m.badoo.com/l/a/2"))
        }
    }

    /// Versions read later order after versions read before, whichever of the two moved.
    @Test func versionsOrderBySnapshotThenLinks() {
        typealias Version = ShortLinkPages.Version
        let first = Version(snapshot: 3, links: 7)
        #expect(first < Version(snapshot: 3, links: 8))
        #expect(first < Version(snapshot: 4, links: 7))
        #expect(!(first < first) && first == Version(snapshot: 3, links: 7))
        #expect(Version(snapshot: 3, links: 9) < Version(snapshot: 4, links: 0))
    }
}
