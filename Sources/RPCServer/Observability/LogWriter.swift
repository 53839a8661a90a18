import Dispatch
import Foundation
import Synchronization

/// Writes log lines on one thread of its own, so a request never waits for the disk, a full pipe or a
/// slow terminal.
///
/// Requests append finished lines to a bounded byte queue under a short lock (a copy, no allocation: the
/// queue keeps its capacity); the writer swaps the queue for its empty spare and writes the whole batch with
/// one `write(2)`. The writer looks every `interval` (5 ms) rather than being woken per line: waking it cost
/// the request a futex call, and the writer, always caught up, a `write(2)` per line or two (28,023 writes
/// for 43,342 lines, counted with strace). A queue half full wakes it at once.
///
/// When a line does not fit, it is dropped and counted instead of waiting: the writer catches up and the
/// count says how much was lost. Lines are appended whole and only this thread writes, so they
/// never interleave.
final class LogWriter: Sendable {
    /// Where batches go: returns false when the bytes could not be written (they are counted as dropped).
    typealias Output = @Sendable (UnsafeRawBufferPointer) -> Bool

    private struct Queue {
        var pending: [UInt8]
        /// Lines in `pending`.
        var lines = 0
        var closed = false
        var dropped: UInt64 = 0
        /// Lines queued, and lines handed to `output` (written or not): flush waits for `done` to reach
        /// the `accepted` of its call.
        var accepted: UInt64 = 0
        var done: UInt64 = 0
    }

    private let queue: Mutex<Queue>
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let capacity: Int
    private let output: Output
    /// How long the writer sleeps between looks at the queue when nothing wakes it.
    private let interval: DispatchTimeInterval

    /// - Parameters:
    ///   - capacity: the most bytes waiting to be written; a line that does not fit is dropped.
    ///   - output: receives each batch of whole lines, on the writer thread.
    ///   - interval: the longest a line waits in the queue while it is less than half full.
    init(capacity: Int = 1 << 20, interval: DispatchTimeInterval = .milliseconds(5), output: @escaping Output) {
        self.capacity = capacity
        self.output = output
        self.interval = interval
        var pending: [UInt8] = []
        pending.reserveCapacity(capacity)
        queue = Mutex(Queue(pending: pending))
        let thread = Thread { [self] in run() }
        thread.name = "routereg-log"
        thread.start()
    }

    /// Lines dropped because the queue was full, the output failed, or the log was closed.
    var droppedLines: UInt64 { queue.withLock { $0.dropped } }

    /// Queues one line (its bytes must end with a newline); never blocks beyond the queue's lock.
    func enqueue(_ line: UnsafeRawBufferPointer) {
        let half = capacity / 2
        let crossedHalf = queue.withLock { queue in
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
        let mark = queue.withLock { $0.accepted }
        wake.signal()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while queue.withLock({ $0.done < mark }) {
            if clock.now >= deadline { return false }
            usleep(500)
        }
        return true
    }

    /// Writes what is queued, refuses later lines (counted as dropped) and ends the thread, waiting at most
    /// `timeout`. False when the writer did not finish in time (its output is stuck). Idempotent.
    @discardableResult
    func close(timeout: Duration) -> Bool {
        let first = queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
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
        batch.reserveCapacity(capacity)
        while true {
            _ = wake.wait(timeout: .now() + interval)
            while true {
                let (lines, closed) = queue.withLock { queue in
                    swap(&queue.pending, &batch)
                    defer { queue.lines = 0 }
                    return (queue.lines, queue.closed)
                }
                if batch.isEmpty {
                    if closed {
                        finished.signal()
                        return
                    }
                    break
                }
                let written = batch.withUnsafeBytes { output($0) }
                batch.removeAll(keepingCapacity: true)
                queue.withLock { queue in
                    if !written { queue.dropped += UInt64(lines) }
                    queue.done += UInt64(lines)
                }
                // The next batch after the interval (or at once if the queue reached half meanwhile: it
                // signalled); only a closing log is drained without pause.
                if !closed { break }
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
