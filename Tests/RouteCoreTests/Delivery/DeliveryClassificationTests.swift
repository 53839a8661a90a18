import Foundation
import RouteCore
import Testing

/// What a delivery service's copy is against the current revision, and which revision a served meaning
/// matches: the rules the delivery watch and `domain verify` share, without a database or sockets.
@Suite struct DeliveryClassificationTests {
    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    /// A row: the copy, the current revision, and what is expected of it.
    struct Row: Sendable, CustomTestStringConvertible {
        var copy: DeliveryClassification.Copy
        var current: Int
        var served: DeliveryStatus.Served
        var servedRevision: Int?
        var behind: Int?
        /// Expected `behindSince`: the revision whose creation it is (0: the current one's), nil for none.
        var since: Int?
        var testDescription: String { "\(copy) against \(current)" }
    }

    static let rows: [Row] = [
        Row(copy: .unknown, current: 5, served: .unknown, servedRevision: nil, behind: nil, since: nil),
        Row(copy: .none, current: 5, served: .none, servedRevision: nil, behind: -1, since: 0),
        Row(copy: .unpublished, current: 5, served: .unpublished, servedRevision: nil, behind: -1, since: 0),
        Row(copy: .revision(5), current: 5, served: .revision, servedRevision: 5, behind: 0, since: nil),
        Row(copy: .revision(4), current: 5, served: .revision, servedRevision: 4, behind: 1, since: 5),
        Row(copy: .revision(2), current: 5, served: .revision, servedRevision: 2, behind: 3, since: 3),
        // A copy matched before a newer revision reached this server's snapshot: never "ahead".
        Row(copy: .revision(6), current: 5, served: .revision, servedRevision: 6, behind: 0, since: nil),
    ]

    /// Revision n was created n hours after `created`.
    static func time(_ number: Int) -> Date { created.addingTimeInterval(Double(number) * 3600) }

    @Test(arguments: rows) func classify(_ row: Row) {
        let classified = DeliveryClassification.classify(
            row.copy, current: row.current, currentTime: Self.time(row.current), revisionTime: Self.time)
        #expect(classified.served == row.served)
        #expect(classified.servedRevision == row.servedRevision)
        #expect(classified.revisionsBehind == row.behind)
        #expect(classified.behindSince == row.since.map { Self.time($0 == 0 ? row.current : $0) })
    }

    @Test func aMissingRevisionTimeFallsBackToTheCurrentOnes() {
        let classified = DeliveryClassification.classify(
            .revision(3), current: 5, currentTime: Self.time(5), revisionTime: { _ in nil })
        #expect(classified.behindSince == Self.time(5))
    }

    @Test(arguments: [
        (DeliveryClassification.Copy.unknown, nil as Double?),
        (.revision(5), 0),
        (.revision(4), 3600 * 2),  // revision 5, created at hour 5, waited until hour 7
        (.unpublished, 3600 * 2),
    ])
    func secondsBehind(_ copy: DeliveryClassification.Copy, _ expected: Double?) {
        let classified = DeliveryClassification.classify(
            copy, current: 5, currentTime: Self.time(5), revisionTime: Self.time)
        #expect(classified.secondsBehind(at: Self.time(7), currentTime: Self.time(5)) == expected)
    }

    @Test func secondsBehindIsNeverNegative() {
        let classified = DeliveryClassification.classify(.unpublished, current: 5, currentTime: Self.time(5))
        #expect(classified.secondsBehind(at: Self.time(4), currentTime: Self.time(5)) == 0)
    }

    @Test func candidatesAreTheLookBackNewestFirst() {
        #expect(Array(DeliveryClassification.candidates(current: 3)) == [3, 2, 1])
        let long = Array(DeliveryClassification.candidates(current: 1000))
        #expect(long.count == DeliveryClassification.lookBack)
        #expect(long.first == 1000)
        #expect(long.last == 1000 - DeliveryClassification.lookBack + 1)
        #expect(DeliveryClassification.isBeyondLookBack(1000 - DeliveryClassification.lookBack, current: 1000))
        #expect(!DeliveryClassification.isBeyondLookBack(long.last!, current: 1000))
    }

    /// Meanings by revision: 1 "a", 2 "b", 3 "a" again (a rollback), 4 "c"; revision 5 has none.
    static func meaning(_ number: Int) -> String? { [1: "a", 2: "b", 3: "a", 4: "c"][number] }

    @Test(arguments: [
        ("a", 3 as Int?),  // the newest revision with the meaning
        ("b", 2),
        ("c", 4),
        ("z", nil),  // none of ours
    ])
    func matchFindsTheNewestRevisionWithTheMeaning(_ meaning: String, _ expected: Int?) {
        #expect(DeliveryClassification.match(meaning: meaning, current: 5, meaningOf: Self.meaning) == expected)
    }

    @Test func aRevisionBeyondTheLookBackIsNoneOfOurs() {
        let current = DeliveryClassification.lookBack + 10
        var asked: [Int] = []
        let matched = DeliveryClassification.match(meaning: "old", current: current) { number in
            asked.append(number)
            return number == 5 ? "old" : "new \(number)"
        }
        #expect(matched == nil)
        #expect(asked.count == DeliveryClassification.lookBack)
        #expect(asked.min() == 11)
    }
}
