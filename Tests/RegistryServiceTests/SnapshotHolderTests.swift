import Dispatch
import Foundation
import RouteCore
import Testing

@testable import RegistryService

/// `SnapshotHolder.current` reads each thread's own copy: a swap is seen by every thread that read the old
/// snapshot, and no thread's copy keeps a replaced snapshot alive.
@Suite struct SnapshotHolderTests {
    private static func snapshot(_ generation: Int64) -> Snapshot {
        Snapshot(registry: Registry(), documents: [:], tokens: [:], generation: generation)
    }

    /// Runs `body` on a new thread and waits for it.
    private static func onThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        done.wait()
    }

    @Test("a thread that read the old snapshot reads the new one after a swap")
    func everyThreadSeesTheSwap() {
        let holder = SnapshotHolder(Self.snapshot(1))
        #expect(holder.current.generation == 1)
        Self.onThread { #expect(holder.current.generation == 1) }
        holder.install(Self.snapshot(2))
        #expect(holder.current.generation == 2)
        Self.onThread { #expect(holder.current.generation == 2) }
        // An older one is refused, and nobody's copy changes.
        #expect(!holder.install(Self.snapshot(1)))
        #expect(holder.current.generation == 2)
    }

    @Test("no thread's copy keeps a replaced snapshot alive")
    func aReplacedSnapshotIsFreed() {
        weak var first: Snapshot?
        let holder: SnapshotHolder = {
            let made = Self.snapshot(1)
            first = made
            return SnapshotHolder(made)
        }()
        // Several threads read it (each keeps a copy), then it is replaced.
        for _ in 0..<3 { Self.onThread { _ = holder.current } }
        _ = holder.current
        #expect(first != nil)
        holder.install(Self.snapshot(2))
        #expect(first == nil)
        #expect(holder.current.generation == 2)
    }
}
