import Foundation
import RouteCore
import Testing

/// When the delivery watch next observes each document: time passed in, randomness from `RegistryRNG`,
/// no clock, sockets or database.
@Suite struct DeliveryScheduleTests {
    static let aasa = DocumentKey(host: "m.badoo.com", kind: .aasa)
    static let links = DocumentKey(host: "m.badoo.com", kind: .assetlinks)
    static let timing = DeliverySchedule.Timing(
        interval: .seconds(3600), pendingInterval: .seconds(600), errorBackoff: .seconds(60), jitter: 0)

    /// A schedule holding `aasa` at revision `revision`, first observed (and answered `outcome`) at `now`.
    static func planned(
        _ now: ContinuousClock.Instant, outcome: DeliveryOutcome, servesCurrent: Bool, revision: Int = 3,
        timing: DeliverySchedule.Timing = timing
    ) -> DeliverySchedule {
        var random = RegistryRNG(seed: 1)
        var schedule = DeliverySchedule(timing: timing)
        schedule.sync(current: [aasa: revision], history: { _ in nil }, now: now, using: &random)
        schedule.record(
            aasa, outcome: outcome, servesCurrent: servesCurrent, currentRevision: revision, now: now, using: &random)
        return schedule
    }

    /// A row: an observation's outcome, whether the copy is current, and the wait the schedule must choose.
    struct Row: Sendable, CustomTestStringConvertible {
        var outcome: DeliveryOutcome
        var servesCurrent: Bool
        var wait: Duration
        var testDescription: String { "\(outcome.rawValue), current: \(servesCurrent)" }
    }

    static let rows: [Row] = [
        Row(outcome: .served, servesCurrent: true, wait: .seconds(3600)),
        Row(outcome: .unchanged, servesCurrent: true, wait: .seconds(3600)),
        Row(outcome: .served, servesCurrent: false, wait: .seconds(600)),
        // A 404 never counts as current, whatever was matched before.
        Row(outcome: .notFound, servesCurrent: true, wait: .seconds(600)),
        // Answers we cannot use are answers: no backoff.
        Row(outcome: .invalidJSON, servesCurrent: false, wait: .seconds(600)),
        Row(outcome: .tooLarge, servesCurrent: false, wait: .seconds(600)),
        // Failures: the first backoff.
        Row(outcome: .timeout, servesCurrent: true, wait: .seconds(60)),
        Row(outcome: .httpError, servesCurrent: false, wait: .seconds(60)),
        Row(outcome: .networkError, servesCurrent: false, wait: .seconds(60)),
    ]

    @Test(arguments: rows) func theNextWaitFollowsTheOutcome(_ row: Row) throws {
        let now = ContinuousClock.now
        let schedule = Self.planned(now, outcome: row.outcome, servesCurrent: row.servesCurrent)
        let plan = try #require(schedule.plans[Self.aasa])
        #expect(plan.due == now + row.wait)
        #expect(plan.failures == (row.outcome.isAnswer ? 0 : 1))
        #expect(schedule.due(at: now + row.wait - .milliseconds(1), limit: 10).isEmpty)
        #expect(schedule.due(at: now + row.wait, limit: 10) == [Self.aasa])
    }

    @Test(arguments: [(1, 60), (2, 120), (3, 240), (6, 1920), (7, 3600), (40, 3600)])
    func failuresBackOffDoublingUpToTheInterval(_ failures: Int, _ seconds: Int) {
        #expect(Self.timing.backoff(failures: failures) == .seconds(seconds))
    }

    @Test func repeatedFailuresBackOffAndAnAnswerResetsThem() throws {
        let start = ContinuousClock.now
        var random = RegistryRNG(seed: 2)
        var schedule = Self.planned(start, outcome: .timeout, servesCurrent: false)
        var now = start
        for expected in [120, 240, 480] {
            now = try #require(schedule.plans[Self.aasa]).due
            schedule.record(
                Self.aasa, outcome: .networkError, servesCurrent: false, currentRevision: 3, now: now, using: &random)
            #expect(try #require(schedule.plans[Self.aasa]).due == now + .seconds(expected))
        }
        #expect(try #require(schedule.plans[Self.aasa]).failures == 4)
        schedule.record(Self.aasa, outcome: .served, servesCurrent: true, currentRevision: 3, now: now, using: &random)
        #expect(try #require(schedule.plans[Self.aasa]).failures == 0)
        #expect(try #require(schedule.plans[Self.aasa]).due == now + .seconds(3600))
    }

    @Test func aPublishBringsTheNextFetchForwardAndNeverBack() throws {
        let now = ContinuousClock.now
        var random = RegistryRNG(seed: 3)
        var schedule = Self.planned(now, outcome: .served, servesCurrent: true)
        #expect(try #require(schedule.plans[Self.aasa]).due == now + .seconds(3600))
        // Revision 4 published ten seconds later: due within the pending interval from then.
        let later = now + .seconds(10)
        schedule.sync(current: [Self.aasa: 4], history: { _ in nil }, now: later, using: &random)
        var plan = try #require(schedule.plans[Self.aasa])
        #expect(plan.due == later + .seconds(600))
        #expect(plan.revision == 4)
        // An unchanged revision changes nothing; nor does a publish when the fetch is already sooner.
        schedule.sync(current: [Self.aasa: 4], history: { _ in nil }, now: later + .seconds(5), using: &random)
        #expect(try #require(schedule.plans[Self.aasa]) == plan)
        schedule.record(
            Self.aasa, outcome: .timeout, servesCurrent: false, currentRevision: 4, now: later, using: &random)
        plan = try #require(schedule.plans[Self.aasa])
        schedule.sync(current: [Self.aasa: 5], history: { _ in nil }, now: later, using: &random)
        #expect(try #require(schedule.plans[Self.aasa]).due == plan.due)
    }

    @Test func aNewObserverStartsFromTheStoredObservations() throws {
        let now = ContinuousClock.now
        var random = RegistryRNG(seed: 4)
        var schedule = DeliverySchedule(timing: Self.timing)
        let history: [DocumentKey: DeliverySchedule.History] = [
            // Current, observed 20 minutes ago: due in 40.
            Self.aasa: .init(age: .seconds(1200), servesCurrent: true),
            // Behind, observed an hour ago: overdue, so due now.
            Self.links: .init(age: .seconds(3600), servesCurrent: false),
        ]
        let never = DocumentKey(host: "new.example.com", kind: .aasa)
        schedule.sync(
            current: [Self.aasa: 1, Self.links: 1, never: 1], history: { history[$0] }, now: now, using: &random)
        #expect(try #require(schedule.plans[Self.aasa]).due == now + .seconds(2400))
        #expect(try #require(schedule.plans[Self.links]).due == now)
        // Never observed: soon, spread over at most a minute.
        let first = try #require(schedule.plans[never]).due
        #expect(first >= now && first <= now + .seconds(60))
        #expect(schedule.due(at: now, limit: 10).contains(Self.links))
    }

    @Test func dueIsMostOverdueFirstAndLimited() {
        let now = ContinuousClock.now
        var random = RegistryRNG(seed: 5)
        var schedule = DeliverySchedule(timing: Self.timing)
        let keys = (0..<5).map { DocumentKey(host: "h\($0).example.com", kind: .aasa) }
        // Key i was observed i minutes ago (current): due in 60 - i minutes.
        schedule.sync(
            current: Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }),
            history: { key in .init(age: .seconds(60 * keys.firstIndex(of: key)!), servesCurrent: true) },
            now: now, using: &random)
        #expect(schedule.due(at: now + .seconds(3360 - 1), limit: 10).isEmpty)
        #expect(schedule.due(at: now + .seconds(3360), limit: 10) == [keys[4]])
        #expect(schedule.due(at: now + .seconds(3600), limit: 10) == keys.reversed())
        #expect(schedule.due(at: now + .seconds(3600), limit: 2) == [keys[4], keys[3]])
    }

    @Test func aRemovedDocumentIsForgotten() {
        let now = ContinuousClock.now
        var random = RegistryRNG(seed: 6)
        var schedule = Self.planned(now, outcome: .served, servesCurrent: true)
        schedule.sync(current: [Self.links: 1], history: { _ in nil }, now: now, using: &random)
        #expect(schedule.plans[Self.aasa] == nil)
        #expect(schedule.plans[Self.links] != nil)
        schedule.reset()
        #expect(schedule.plans.isEmpty)
    }

    @Test func jitterStaysWithinItsFraction() throws {
        var timing = Self.timing
        timing.jitter = 0.1
        var random = RegistryRNG(seed: 7)
        var schedule = DeliverySchedule(timing: timing)
        let now = ContinuousClock.now
        var waits: Set<Duration> = []
        for _ in 0..<50 {
            schedule.record(
                Self.aasa, outcome: .served, servesCurrent: true, currentRevision: 1, now: now, using: &random)
            let wait = now.duration(to: try #require(schedule.plans[Self.aasa]).due)
            #expect(wait >= .seconds(3240) && wait <= .seconds(3960))
            waits.insert(wait)
        }
        #expect(waits.count > 1, "no jitter at all")
    }
}
