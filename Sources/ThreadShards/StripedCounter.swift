import Synchronization

/// An atomic alone on its cache line, one per thread shard (`ThreadSlot`).
private final class PaddedAtomic: Sendable {
    let value = Atomic<Int>(0)
    /// Keeps the next cell's value off this one's cache line.
    private let padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    static func cells() -> [PaddedAtomic] { (0..<ThreadSlot.shardCount).map { _ in PaddedAtomic() } }
}

/// A count every request thread changes and few read (requests in flight): each thread adds to its own
/// cell (`ThreadSlot`), so a request writes no cache line the other cores write; a read sums the cells.
public final class StripedCounter: Sendable {
    private let cells = PaddedAtomic.cells()

    public init() {}

    /// Adds `delta` (negative to take away) in the calling thread's cell.
    public func add(_ delta: Int) { cells[ThreadSlot.currentShard].value.add(delta, ordering: .relaxed) }

    /// The sum of every cell: exact when no thread is adding.
    public var sum: Int { cells.reduce(0) { $0 + $1.value.load(ordering: .relaxed) } }
}

/// Numbers unique in the process (from 1), handed out without a cache line shared between threads: each
/// thread's cell counts on its own, and a number is its cell's count times the cell count plus the cell. Not
/// in order across threads; each thread's own are increasing.
public final class StripedSequence: Sendable {
    private let cells = PaddedAtomic.cells()

    public init() {}

    /// The next number of the calling thread's cell.
    public func next() -> UInt64 {
        let shard = ThreadSlot.currentShard
        let count = UInt64(cells[shard].value.add(1, ordering: .relaxed).oldValue)
        return count * UInt64(ThreadSlot.shardCount) + UInt64(shard) + 1
    }
}
