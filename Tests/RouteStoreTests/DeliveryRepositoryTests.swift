import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Delivery repository")
struct DeliveryRepositoryTests {
    let fixture: StoreTestDatabase
    let delivery = DeliveryRepository()

    init() throws { fixture = try StoreTestDatabase(suite: "delivery") }

    static func observation(
        _ host: String, _ outcome: DeliveryObservation.Outcome, daysAgo: Double, kind: DocumentKind = .aasa
    ) -> DeliveryObservation {
        DeliveryObservation(
            host: host, kind: kind, observedAt: Date().addingTimeInterval(-daysAgo * 86_400), outcome: outcome,
            httpStatus: outcome == .timeout ? nil : 200, matchedRevision: outcome == .served ? 3 : nil)
    }

    @Test func latestTellsTheLastObservationAndTheLastThatToldWhatIsServed() throws {
        try fixture.tx { tx in
            try delivery.record(Self.observation("a.com", .served, daysAgo: 2), in: tx)
            try delivery.record(Self.observation("a.com", .timeout, daysAgo: 1), in: tx)
            try delivery.record(Self.observation("a.com", .served, daysAgo: 1, kind: .assetlinks), in: tx)
            try delivery.record(Self.observation("b.com", .notFound, daysAgo: 1), in: tx)
        }
        let latest = try fixture.tx { try delivery.latest(hosts: ["a.com", "b.com", "c.com"], in: $0) }
        let a = try #require(latest[DocumentKey(host: "a.com", kind: .aasa)])
        #expect(a.last.outcome == .timeout)
        #expect(a.content?.outcome == .served && a.content?.matchedRevision == 3)
        #expect(latest[DocumentKey(host: "a.com", kind: .assetlinks)]?.last.outcome == .served)
        #expect(latest[DocumentKey(host: "b.com", kind: .aasa)]?.content?.outcome == .notFound)
        #expect(latest.count == 3)
        #expect(try fixture.tx { try delivery.latest(hosts: [], in: $0) }.isEmpty)
    }

    @Test func pruningKeepsRecentRowsAndEachDocumentsLatest() throws {
        try fixture.tx { tx in
            // a.com: old rows only; its last row and its last content row survive whatever their age.
            for days in [50.0, 45, 40] {
                try delivery.record(Self.observation("a.com", .served, daysAgo: days), in: tx)
            }
            try delivery.record(Self.observation("a.com", .timeout, daysAgo: 35), in: tx)
            // b.com: old rows and a recent one.
            try delivery.record(Self.observation("b.com", .served, daysAgo: 60), in: tx)
            try delivery.record(Self.observation("b.com", .served, daysAgo: 1), in: tx)
        }
        let deleted = try fixture.tx {
            try delivery.prune(olderThan: Date().addingTimeInterval(-30 * 86_400), in: $0)
        }
        #expect(deleted == 3)
        let a = try fixture.tx { try delivery.history(host: "a.com", kind: .aasa, limit: 10, in: $0) }
        #expect(a.map(\.outcome) == [.timeout, .served])
        #expect(a.last.map { Date().timeIntervalSince($0.observedAt) / 86_400 }.map { abs($0 - 40) < 0.01 } == true)
        let b = try fixture.tx { try delivery.history(host: "b.com", kind: .aasa, limit: 10, in: $0) }
        #expect(b.count == 1)
    }
}
