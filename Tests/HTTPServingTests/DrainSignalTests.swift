import Dispatch
import Synchronization
import Testing

@testable import HTTPServing

/// The wait behind `HTTPServer.stop()`: woken by the change it waits for, bounded by its deadline.
@Suite("Drain signal")
struct DrainSignalTests {
    @Test("a waiter wakes when the change it waits for is signalled, long before its deadline")
    func wakesOnChange() {
        let signal = DrainSignal()
        let inFlight = Atomic<Int>(3)
        for delay in [20, 40, 60] {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
                inFlight.subtract(1, ordering: .relaxed)
                signal.changed()
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        let held = signal.wait(upTo: .seconds(60)) { inFlight.load(ordering: .relaxed) == 0 }
        #expect(held)
        #expect(clock.now - started < .seconds(20), "woke after \(clock.now - started)")
    }

    @Test("without the change, the wait ends at its deadline and says so")
    func endsAtDeadline() {
        let signal = DrainSignal()
        let clock = ContinuousClock()
        let started = clock.now
        // Changes that do not make the predicate true wake the waiter, which waits on.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { signal.changed() }
        #expect(!signal.wait(upTo: .milliseconds(300)) { false })
        let took = clock.now - started
        #expect(took >= .milliseconds(300) && took < .seconds(20), "took \(took)")
    }

    @Test("a predicate that already holds, or a deadline already past, returns at once")
    func immediate() {
        let signal = DrainSignal()
        #expect(signal.wait(upTo: .seconds(60)) { true })
        #expect(!signal.wait(upTo: .zero) { false })
        #expect(!signal.wait(upTo: .milliseconds(-5)) { false })
    }
}
