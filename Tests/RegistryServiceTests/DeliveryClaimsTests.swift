import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// `DeliveryStatus.claimedRoutes`: the server says which routes the copy Apple's CDN serves claims, per app,
/// and which the current revision adds, so no client parses AASA comments. Against the real server and a
/// stand-in CDN that serves an older revision, the current one, a hand-written file and nothing.
@Suite(.serialized) struct DeliveryClaimsTests {
    static let host = DeliveryWatchTests.host

    /// The badoo app's claims in the AASA status, once an observation newer than `after` passes `also`.
    static func claims(
        _ server: TestRegistryServer, after mark: Int64, outcome: String = "served",
        also: @escaping @Sendable (DeliveryObservation) -> Bool = { _ in true }
    ) async throws -> (status: [String: Any], routes: [String]?, pending: [String]?) {
        let status = try await DeliveryWatchTests.waitFor(outcome, on: server, after: mark, also: also)
        let claims = status.array("claimedRoutes").compactMap { $0 as? [String: Any] }
        let badoo = claims.first { $0.string("app") == "badoo" }
        return (status, badoo?["routes"] as? [String], badoo?["pending"] as? [String])
    }

    @Test func theServedCopysRoutesAreReportedPerApp() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        let server = try TestRegistryServer(suite: "delivery_claims", delivery: DeliveryWatchTests.options(standIn))
        defer { server.shutdown() }
        try await seedBadoo(server)
        let before = try DeliveryWatchTests.latestRevision(server)
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        let latest = try DeliveryWatchTests.latestRevision(server)
        #expect(latest > before)

        // 5.11.0's revision at the CDN: it claims profile; lookalikes (since 5.12.0) waits there.
        standIn.setAASA(Self.host, .serve(try DeliveryWatchTests.revisionBytes(server, before)))
        var seen = try await Self.claims(server, after: 0) { $0.matchedRevision == before }
        #expect(seen.status.int("servedRevision") == before)
        #expect(seen.routes == ["profile"])
        #expect(seen.pending == ["lookalikes"])

        // The current revision: both claimed, nothing pending.
        var mark = try DeliveryWatchTests.mark(server)
        standIn.setAASA(Self.host, .serve(try DeliveryWatchTests.revisionBytes(server, latest)))
        seen = try await Self.claims(server, after: mark) { $0.matchedRevision == latest }
        #expect(seen.routes == ["profile", "lookalikes"])
        #expect(seen.pending == [])

        // A hand-written file (even one whose comments name routes): not ours, so it claims nothing.
        mark = try DeliveryWatchTests.mark(server)
        let forged = #"""
            {"applinks":{"details":[{"appIDs":["ABCDE12345.com.badoo.Badoo"],
            "components":[{"/":"/u/*","comment":"route profile"}]}]}}
            """#
        standIn.setAASA(Self.host, .serve(Data(forged.utf8)))
        seen = try await Self.claims(server, after: mark) { $0.matchedRevision == nil }
        #expect(seen.status.string("served") == "unpublished")
        #expect(seen.routes == [])
        #expect(seen.pending == ["profile", "lookalikes"])

        // No copy at all.
        mark = try DeliveryWatchTests.mark(server)
        standIn.setAASA(Self.host, .status(404))
        seen = try await Self.claims(server, after: mark, outcome: "not_found")
        #expect(seen.status.string("served") == "none")
        #expect(seen.routes == [])
        #expect(seen.pending == ["profile", "lookalikes"])
    }
}
