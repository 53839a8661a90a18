import Foundation

/// Where the server writes its one JSON line per request (and its error details, keyed by request id).
///
/// Lines never carry tokens or bodies. Lines are formatted as bytes on the request's thread and written by
/// a `LogWriter` thread in batches (`.standardError`, `.standardOutput`, `.file`): a request never waits for
/// the log; when the writer falls behind, lines are dropped and counted (`droppedLines`, and
/// `routereg_log_lines_dropped_total` on `/metrics`). `.silent` keeps test output clean; `.custom` hands
/// each line to a closure on the request's thread (tests).
public struct RequestLog: Sendable {
    enum Backend: Sendable {
        case none
        case sink(@Sendable (String) -> Void)
        case writer(LogWriter)
    }

    let backend: Backend

    /// Standard error, the server's default (one writer thread for the process).
    public static let standardError = RequestLog(.writer(LogWriter(output: LogWriter.descriptor(2))))

    /// Standard output (`--access-log -`).
    public static let standardOutput = RequestLog(.writer(LogWriter(output: LogWriter.descriptor(1))))

    /// Drops every line.
    public static let silent = RequestLog(.none)

    /// Hands every line (without its newline) to `sink`, on the request's thread.
    public static func custom(_ sink: @escaping @Sendable (String) -> Void) -> RequestLog { RequestLog(.sink(sink)) }

    /// Appends to the file at `path` (created with mode 644 if missing). Throws when it cannot be opened.
    public static func file(_ path: String) throws -> RequestLog {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OpenError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        return RequestLog(.writer(LogWriter(output: LogWriter.descriptor(fd))))
    }

    /// Batches of whole lines go to `output` on a writer thread; at most `capacity` bytes wait, beyond which
    /// lines are dropped and counted. `output` returns false when it could not write a batch.
    public static func batches(
        capacity: Int = 1 << 20, _ output: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool
    ) -> RequestLog {
        RequestLog(.writer(LogWriter(capacity: capacity, output: output)))
    }

    init(_ backend: Backend) { self.backend = backend }

    /// Why `file(_:)` could not open its file.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    public var isEnabled: Bool {
        if case .none = backend { return false }
        return true
    }

    /// Lines lost: the queue was full (the output is slower than the requests), a write failed, or the log
    /// was closed.
    public var droppedLines: UInt64 {
        if case .writer(let writer) = backend { return writer.droppedLines }
        return 0
    }

    /// Waits until the lines logged so far are written, at most `timeout`; false when it timed out.
    @discardableResult
    public func flush(timeout: Duration = .seconds(5)) -> Bool {
        if case .writer(let writer) = backend { return writer.flush(timeout: timeout) }
        return true
    }

    /// Writes what is queued and stops the writer thread (at most `timeout`); later lines are dropped.
    /// For a graceful shutdown, after the server has stopped.
    @discardableResult
    public func close(timeout: Duration = .seconds(5)) -> Bool {
        if case .writer(let writer) = backend { return writer.close(timeout: timeout) }
        return true
    }

    /// Builds a line in this thread's buffer with `body` (which writes the members, the first with
    /// `first: true`) and queues it.
    public func line(_ body: (inout LogLineBuffer) -> Void) {
        switch backend {
        case .none: return
        case .sink(let sink):
            LogLineBuffer.withCurrent(
                { line in
                    line.writeByte(UInt8(ascii: "{"))
                    body(&line)
                    line.writeByte(UInt8(ascii: "}"))
                }, { bytes, _ in sink(String(decoding: bytes, as: UTF8.self)) })
        case .writer(let writer):
            LogLineBuffer.withCurrent(
                { line in
                    line.writeByte(UInt8(ascii: "{"))
                    body(&line)
                    line.append("}\n")
                }, { bytes, shard in writer.enqueue(bytes, shard: shard) })
        }
    }
}
