import Dispatch
import Foundation
import Synchronization
import ThreadShards

/// Writes log lines on one thread of its own, so a request never waits for the disk, a full pipe or a
/// slow terminal.
///
/// Requests append finished lines to a bounded byte queue under a short lock (a copy, no allocation: the
/// queue keeps its capacity); the writer swaps the queue for its empty spare and writes the whole batch with
/// one `write(2)`. The writer looks every `interval` (5 ms) rather than being woken per line: waking it would
/// cost the request a futex call, and the writer, always caught up, would write a line or two per call. A
/// queue half full wakes it at once.
///
/// The queue is split in `ThreadSlot.shardCount` shards and each thread appends to its own (`LogLineStorage.shard`):
/// with one queue for every thread, its lock and tail moved between the cores on every request, and
/// `enqueue` was the costliest function of the log path (perf, AASA GET at 64 connections).
///
/// When a line does not fit in its shard, it is dropped and counted instead of waiting: the writer catches
/// up and the count says how much was lost. Lines are appended whole and only this thread writes, so they
/// never interleave; lines of different threads can come out of order by up to one batch.
final class LogWriter: Sendable {
    /// Where batches go: returns false when the bytes could not be written (they are counted as dropped).
    typealias Output = @Sendable (UnsafeRawBufferPointer) -> Bool

    /// Shards per writer: above the server's thread count, so threads seldom share one.

    private struct Queue {
        var pending: [UInt8] = []
        /// Lines in `pending`.
        var lines = 0
        var closed = false
        var dropped: UInt64 = 0
        /// Lines queued, and lines handed to `output` (written or not): flush waits for `done` to reach
        /// the `accepted` of its call.
        var accepted: UInt64 = 0
        var done: UInt64 = 0
    }

    /// One shard's queue, in an object of its own so that shards do not share cache lines.
    private final class Shard: Sendable {
        let queue = Mutex(Queue())
    }

    private let shards: [Shard]
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let capacity: Int
    private let output: Output
    /// How long the writer sleeps between looks at the queue when nothing wakes it.
    private let interval: DispatchTimeInterval

    /// - Parameters:
    ///   - capacity: the most bytes waiting to be written in one shard; a line that does not fit is dropped.
    ///   - output: receives each batch of whole lines, on the writer thread.
    ///   - interval: the longest a line waits in the queue while its shard is less than half full.
    init(capacity: Int = 1 << 20, interval: DispatchTimeInterval = .milliseconds(5), output: @escaping Output) {
        self.capacity = capacity
        self.output = output
        self.interval = interval
        shards = (0..<ThreadSlot.shardCount).map { _ in Shard() }
        let thread = Thread { [self] in run() }
        thread.name = "routereg-log"
        thread.start()
    }

    /// Lines dropped because the queue was full, the output failed, or the log was closed.
    var droppedLines: UInt64 { shards.reduce(0) { sum, shard in sum + shard.queue.withLock { $0.dropped } } }

    /// Queues one line (its bytes must end with a newline) in `shard` (any number; taken modulo the shard
    /// count); never blocks beyond that shard's lock.
    func enqueue(_ line: UnsafeRawBufferPointer, shard: Int) {
        let half = capacity / 2
        let capacity = capacity
        let crossedHalf = shards[shard & (ThreadSlot.shardCount - 1)].queue.withLock { queue in
            guard !queue.closed, queue.pending.count + line.count <= capacity else {
                queue.dropped += 1
                return false
            }
            let before = queue.pending.count
            queue.pending.append(contentsOf: line)
            queue.lines += 1
            queue.accepted += 1
            return before < half && queue.pending.count >= half
        }
        if crossedHalf { wake.signal() }
    }

    /// Waits until every line queued before the call is written, at most `timeout`. False on timeout.
    @discardableResult
    func flush(timeout: Duration) -> Bool {
        let marks = shards.map { shard in shard.queue.withLock { $0.accepted } }
        wake.signal()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while zip(shards, marks).contains(where: { shard, mark in shard.queue.withLock { $0.done < mark } }) {
            if clock.now >= deadline { return false }
            usleep(500)
        }
        return true
    }

    /// Writes what is queued, refuses later lines (counted as dropped) and ends the thread, waiting at most
    /// `timeout`. False when the writer did not finish in time (its output is stuck). Idempotent.
    @discardableResult
    func close(timeout: Duration) -> Bool {
        var first = false
        for shard in shards {
            shard.queue.withLock { queue in
                if !queue.closed { first = true }
                queue.closed = true
            }
        }
        guard first else { return flush(timeout: timeout) }
        wake.signal()
        let nanos =
            UInt64(max(0, timeout.components.seconds)) * 1_000_000_000
            + UInt64(max(0, timeout.components.attoseconds / 1_000_000_000))
        return finished.wait(timeout: .now() + .nanoseconds(Int(clamping: nanos))) == .success
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            _ = wake.wait(timeout: .now() + interval)
            // Each shard once per look (a closing log drains them all, then ends). A shard seen closed at
            // its swap takes no more lines, so once all were, nothing is left.
            var allClosed = true
            for shard in shards {
                let (lines, closed) = shard.queue.withLock { queue in
                    swap(&queue.pending, &batch)
                    defer { queue.lines = 0 }
                    return (queue.lines, queue.closed)
                }
                if !closed { allClosed = false }
                guard !batch.isEmpty else { continue }
                let written = batch.withUnsafeBytes { output($0) }
                batch.removeAll(keepingCapacity: true)
                shard.queue.withLock { queue in
                    if !written { queue.dropped += UInt64(lines) }
                    queue.done += UInt64(lines)
                }
            }
            if allClosed {
                finished.signal()
                return
            }
        }
    }
}

extension LogWriter {
    /// An output writing every batch to `descriptor` (retrying short writes and interruptions).
    static func descriptor(_ fd: Int32) -> Output {
        { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
