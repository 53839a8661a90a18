import Dispatch
import Foundation
import Synchronization
import Testing
import ThreadShards

/// The per-thread structures a request touches instead of shared cache lines: counts stay exact, numbers
/// stay unique, and a thread's cached value is its own.
@Suite struct ThreadShardingTests {
    @Test("a striped count is exact once its threads are done, whichever threads added and took away")
    func stripedCountsSumExactly() {
        let counter = StripedCounter()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            for _ in 0..<1_000 { counter.add(1) }
            if index.isMultiple(of: 2) { for _ in 0..<1_000 { counter.add(-1) } }
        }
        #expect(counter.sum == 8_000)
    }

    @Test("numbers from a striped sequence are unique across threads and increase on each thread")
    func stripedNumbersAreUnique() {
        let sequence = StripedSequence()
        let all = Mutex<[UInt64]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let mine = (0..<500).map { _ in sequence.next() }
            #expect(mine == mine.sorted() && !mine.contains(0))
            all.withLock { $0 += mine }
        }
        let numbers = all.withLock { $0 }
        #expect(numbers.count == 6_000 && Set(numbers).count == 6_000)
    }

    @Test("each thread reads and changes its shard's value, which no thread of another shard sees")
    func eachThreadHasItsOwnValue() {
        let sharded = ThreadSharded { [Int]() }
        // One thread after another, so what each sees is certain: what the earlier threads of its shard (if
        // any: other tests' threads take numbers too) appended, then its own.
        var expected: [Int: [Int]] = [:]
        for index in 0..<4 {
            let seen = Mutex<(shard: Int, value: [Int])>((0, []))
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                sharded.withLock { $0.append(index) }
                sharded.withLock { $0.append(index) }
                let value = sharded.withLock { $0 }
                seen.withLock { $0 = (ThreadSlot.currentShard, value) }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            let (shard, value) = seen.withLock { $0 }
            expected[shard, default: []] += [index, index]
            #expect(value == expected[shard])
        }
    }
}
