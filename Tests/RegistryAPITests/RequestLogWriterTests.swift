import Dispatch
import Foundation
import RouteCore
import Synchronization
import Testing

@testable import RegistryAPI
@testable import HTTPServing
import JSONRPC

/// The request log's writer: whole JSON lines, never interleaved, never blocking a request, drops counted,
/// nothing lost at a graceful stop.
@Suite("Request log writer")
struct RequestLogWriterTests {
    /// Collects the bytes a log writes; `stall` holds the writer until released.
    final class Output: Sendable {
        let bytes = Mutex<[UInt8]>([])
        let batches = Atomic<Int>(0)
        let gate = Mutex<Bool>(false)
        let stalled = DispatchSemaphore(value: 0)

        func stall() { gate.withLock { $0 = true } }
        func release() {
            gate.withLock { $0 = false }
            stalled.signal()
        }

        var write: @Sendable (UnsafeRawBufferPointer) -> Bool {
            { [self] batch in
                if gate.withLock({ $0 }) { _ = stalled.wait(timeout: .now() + 30) }
                batches.add(1, ordering: .relaxed)
                bytes.withLock { $0.append(contentsOf: batch) }
                return true
            }
        }

        var lines: [String] {
            let all = bytes.withLock { $0 }
            return String(decoding: all, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().map(String.init)
        }
    }

    static func object(_ line: String) throws -> JSONValue { try JSONValue(json: Data(line.utf8)) }

    @Test("lines from many threads arrive whole, one per call, as valid JSON, in batches")
    func concurrentLinesStayWhole() throws {
        let output = Output()
        // Room for every line (about 3.4 MB): a writer thread starved by a loaded machine must not drop any
        // here (dropping when full has its own test).
        let log = RequestLog.batches(capacity: 16 << 20, output.write)
        let threads = 8
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread {
                log.line { line in
                    line.key("thread", first: true)
                    line.integer(thread)
                    line.key("i")
                    line.integer(i)
                    // Quotes, backslashes, control characters and non-ASCII must stay one valid string.
                    line.key("path")
                    line.string("/p/\"quoted\"\\\n\t\u{1}é/" + String(repeating: "x", count: i % 300))
                }
            }
        }
        #expect(log.flush(timeout: .seconds(10)))
        let lines = output.lines
        #expect(lines.count == threads * perThread)
        var seen = Set<Int>()
        for line in lines {
            let value = try Self.object(line)
            let thread = try #require(value["thread"]?.int)
            let i = try #require(value["i"]?.int)
            #expect(value["path"]?.stringValue == "/p/\"quoted\"\\\n\t\u{1}é/" + String(repeating: "x", count: i % 300))
            seen.insert(thread * perThread + i)
        }
        #expect(seen.count == threads * perThread)
        #expect(log.droppedLines == 0)
        // Batched: far fewer writes than lines (each write takes what queued meanwhile).
        #expect(output.batches.load(ordering: .relaxed) < lines.count)
        log.close()
    }

    @Test("a stalled writer never blocks a request: lines that do not fit are dropped and counted")
    func stalledWriterDropsAndCounts() throws {
        let output = Output()
        output.stall()
        let log = RequestLog.batches(capacity: 4_096, output.write)
        let clock = ContinuousClock()
        let started = clock.now
        let total = 1_000
        for i in 0..<total {
            log.line { line in
                line.key("i", first: true)
                line.integer(i)
                line.key("pad")
                line.string(String(repeating: "p", count: 80))
            }
        }
        // 1,000 lines against a writer stuck in its first write: had any waited, this took 30 s.
        #expect(clock.now - started < .seconds(5))
        let dropped = log.droppedLines
        #expect(dropped > 0)
        output.release()
        #expect(log.flush(timeout: .seconds(10)))
        let lines = output.lines
        #expect(UInt64(lines.count) + dropped == UInt64(total))
        for line in lines { _ = try Self.object(line) }
        // The writer caught up: a line logged now is written.
        log.line { line in
            line.key("after", first: true)
            line.integer(1)
        }
        #expect(log.flush(timeout: .seconds(10)))
        #expect(output.lines.last == #"{"after":1}"#)
        log.close()
    }

    @Test("the server counts dropped lines on /metrics and answers while the log is stuck")
    func droppedLinesOnMetrics() throws {
        let output = Output()
        output.stall()
        let log = RequestLog.batches(capacity: 512, output.write)
        let server = try TestServer(log: log)
        defer {
            output.release()
            server.stop()
        }
        let client = try server.client()
        for _ in 0..<20 {
            let response = try client.request("GET", "/healthz")
            #expect(response.status == 200)
        }
        let metrics = try client.request("GET", "/metrics").text
        #expect(metrics.contains("# TYPE routereg_log_lines_dropped_total counter"))
        let line = try #require(
            metrics.split(separator: "\n").first { $0.hasPrefix("routereg_log_lines_dropped_total ") })
        let count = try #require(Double(line.split(separator: " ")[1]))
        #expect(count > 0 && UInt64(count) <= log.droppedLines)
    }

    @Test("a graceful stop writes every request's line before it returns")
    func stopFlushes() throws {
        let output = Output()
        // A slow output: each batch takes 20 ms, so lines are still queued when stop() begins.
        let slow: @Sendable (UnsafeRawBufferPointer) -> Bool = { batch in
            usleep(20_000)
            return output.write(batch)
        }
        let log = RequestLog.batches(slow)
        let server = try TestServer(log: log)
        let client = try server.client()
        let requests = 200
        for _ in 0..<requests { _ = try client.request("GET", "/healthz") }
        server.stop()
        let lines = output.lines.filter { $0.contains(#""path":"/healthz""#) }
        #expect(lines.count == requests)
        for line in lines {
            let value = try Self.object(line)
            #expect(value["status"]?.int == 200)
        }
        // close() stops the writer: later lines are refused and counted, never half written.
        #expect(log.close(timeout: .seconds(5)))
        log.line { line in
            line.key("late", first: true)
            line.integer(1)
        }
        #expect(log.droppedLines == 1)
    }

    @Test("request ids are the process prefix and a hex number unique in it; the client address is dotted decimal")
    func requestIDsAndAddresses() throws {
        let lines = LogLines()
        let server = try TestServer(configure: { $0.logClientAddress = true }, log: .custom { lines.append($0) })
        defer { server.stop() }
        let client = try server.client()
        for _ in 0..<18 { _ = try client.request("GET", "/healthz") }
        try waitUntil { lines.all.count == 18 }
        let values = try lines.all.map(Self.object)
        let ids = values.compactMap { $0["requestId"]?.stringValue }
        #expect(ids.count == 18)
        let prefixes = Set(ids.map { $0.split(separator: "-")[0] })
        #expect(prefixes.count == 1 && prefixes.first?.count == 8)
        // Unique, and increasing on one thread (one keep-alive connection is served by one); not consecutive:
        // each thread numbers from its own cell (`StripedSequence`).
        let numbers = ids.compactMap { UInt64($0.split(separator: "-")[1], radix: 16) }
        #expect(Set(numbers).count == 18 && !numbers.contains(0))
        #expect(numbers == numbers.sorted())
        #expect(ids.allSatisfy { $0.split(separator: "-")[1].allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(values.allSatisfy { $0["remote"]?.stringValue == "127.0.0.1" })
    }

    @Test(
        "timestamps match Foundation's ISO 8601 text",
        // Millisecond parts a Double holds exactly, so Foundation's own rounding cannot differ.
        arguments: [0, 951_782_400_125, 1_709_164_800_750, 1_798_761_599_500, 4_102_444_800_250, -500, -86_400_250]
    )
    func timestamps(millis: Int64) {
        var text = [UInt8](repeating: 0, count: 24)
        LogLineBuffer.format(millis: millis, into: &text)
        let date = Date(timeIntervalSince1970: Double(millis) / 1000)
        var style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        style.timeZone = TimeZone(identifier: "UTC")!
        #expect(String(decoding: text, as: UTF8.self) == date.formatted(style))
    }

    @Test("a line longer than the thread's buffer grows it; a line logged inside another's body does not touch it")
    func longAndNestedLines() throws {
        let lines = LogLines()
        let log = RequestLog.custom { lines.append($0) }
        // Around the buffer's first size, past it, and past what the thread keeps after a line.
        let lengths = [
            10, LogLineStorage.initialCapacity - 20, LogLineStorage.initialCapacity * 3, 70_000, 5, 200_000, 7,
        ]
        for length in lengths {
            log.line { line in
                line.key("path", first: true)
                line.string("/\"" + String(repeating: "é", count: length / 2) + "\n")
                line.key("n")
                line.integer(-length)
            }
        }
        log.line { line in
            line.key("outer", first: true)
            line.string(String(repeating: "o", count: 300))
            log.line { inner in
                inner.key("inner", first: true)
                inner.string(String(repeating: "i", count: 2_000))
            }
            line.key("after")
            line.integer(1)
        }
        let all = lines.all
        try #require(all.count == lengths.count + 2)
        for (line, length) in zip(all, lengths) {
            let value = try Self.object(line)
            #expect(value["path"]?.stringValue == "/\"" + String(repeating: "é", count: length / 2) + "\n")
            #expect(value["n"]?.int == -length)
        }
        #expect(try Self.object(all[lengths.count])["inner"]?.stringValue == String(repeating: "i", count: 2_000))
        let outer = try Self.object(all[lengths.count + 1])
        #expect(outer["outer"]?.stringValue == String(repeating: "o", count: 300))
        #expect(outer["after"]?.int == 1)
    }

    @Test("durations and integers are formatted as JSON numbers")
    func numbers() throws {
        let lines = LogLines()
        let log = RequestLog.custom { lines.append($0) }
        log.line { line in
            line.key("a", first: true)
            line.integer(0)
            line.key("b")
            line.integer(1_234_567)
            line.key("c")
            line.milliseconds(nanos: 12_345_678)
            line.key("d")
            line.milliseconds(nanos: 999)
            line.key("e")
            line.timestamp()
        }
        let line = try #require(lines.all.first)
        #expect(line.hasPrefix(#"{"a":0,"b":1234567,"c":12.345,"d":0.000,"e":""#))
        _ = try Self.object(line)
    }
}
