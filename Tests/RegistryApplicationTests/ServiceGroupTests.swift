import Foundation
import RegistryApplication
import Synchronization
import Testing

/// What the fake services did, in the order they did it.
private final class Journal: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private struct StartFailure: Error {}

/// A service that records its start and stop, and can fail its start or overrun its stop.
private final class RecordingService: ApplicationService {
    let name: String
    let journal: Journal
    let failsToStart: Bool
    let stopTakes: Duration

    init(_ name: String, _ journal: Journal, failsToStart: Bool = false, stopTakes: Duration = .zero) {
        self.name = name
        self.journal = journal
        self.failsToStart = failsToStart
        self.stopTakes = stopTakes
    }

    func start() throws {
        if failsToStart { throw StartFailure() }
        journal.record("start \(name)")
    }

    func stop(deadline: ContinuousClock.Instant) {
        journal.record("stop \(name)")
        if stopTakes > .zero {
            let until = ContinuousClock.now.advanced(by: stopTakes)
            while ContinuousClock.now < until { usleep(1_000) }
        }
    }
}

@Suite("ServiceGroup")
struct ServiceGroupTests {
    @Test func startsInOrderAndStopsInReverse() throws {
        let journal = Journal()
        let group = ServiceGroup(["pool", "monitor", "http"].map { RecordingService($0, journal) })
        try group.start()
        #expect(journal.all == ["start pool", "start monitor", "start http"])
        let outcomes = group.stop()
        #expect(journal.all.suffix(3) == ["stop http", "stop monitor", "stop pool"])
        #expect(outcomes.map(\.name) == ["http", "monitor", "pool"])
        #expect(outcomes.allSatisfy { $0.finishedInTime })
        // A second stop stops nothing twice.
        #expect(group.stop().isEmpty)
        #expect(journal.all.count == 6)
    }

    @Test func aFailingStartStopsWhatStartedAndRethrows() {
        let journal = Journal()
        let group = ServiceGroup([
            RecordingService("pool", journal), RecordingService("monitor", journal),
            RecordingService("watch", journal, failsToStart: true), RecordingService("http", journal),
        ])
        #expect(throws: StartFailure.self) { try group.start() }
        #expect(journal.all == ["start pool", "start monitor", "stop monitor", "stop pool"])
        #expect(group.stop().isEmpty)
    }

    @Test func aStopThatOverrunsItsDeadlineDoesNotHoldUpTheRest() throws {
        let journal = Journal()
        let group = ServiceGroup(
            [RecordingService("pool", journal), RecordingService("stuck", journal, stopTakes: .seconds(2))],
            stopTimeout: .milliseconds(200))
        try group.start()
        let began = ContinuousClock.now
        let outcomes = group.stop()
        let took = ContinuousClock.now - began
        #expect(
            outcomes == [
                .init(name: "stuck", finishedInTime: false), .init(name: "pool", finishedInTime: true),
            ])
        #expect(journal.all.contains("stop pool"))
        // The stuck stop was waited for up to its own deadline only, not for its 2 s.
        #expect(took < .milliseconds(1_500), "stop took \(took)")
    }
}
