import Foundation
import JSONBytes
import Synchronization
import ThreadShards

/// A log line being built, as bytes, in memory its thread reuses: formatting a line allocates nothing once
/// the thread's buffer has grown to its longest line.
///
/// The bytes are written through a cursor into raw memory the thread's storage (`LogLineStorage`) lends for
/// the line: an append is a bounds check and a copy, where appending to a `[UInt8]` pays the array's
/// uniqueness and capacity checks on every call. Only
/// `withCurrent` makes one, and lends it `inout` to one line's body: a copy would point at memory the
/// original may reallocate.
public struct LogLineBuffer: JSONByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0
    /// The thread's storage, which keeps the timestamp text of the current millisecond.
    let storage: LogLineStorage

    private init(storage: LogLineStorage) {
        self.storage = storage
        (base, capacity) = storage.take()
    }

    /// Formats a line with `body` in this thread's buffer and hands its bytes and the thread's log shard
    /// (`LogLineStorage.shard`) to `use`.
    static func withCurrent<Result>(
        _ body: (inout LogLineBuffer) -> Void, _ use: (UnsafeRawBufferPointer, Int) -> Result
    ) -> Result {
        let storage = LogLineStorage.current
        var line = LogLineBuffer(storage: storage)
        body(&line)
        defer { storage.give(back: line.base, capacity: line.capacity) }
        return use(UnsafeRawBufferPointer(start: line.base, count: line.count), storage.shard)
    }

    @inline(__always)
    public mutating func writeByte(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    public mutating func writeBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        capacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { writeBytes($0) }
    }

    /// `"key":` (keys are plain ASCII, never escaped).
    @inline(__always)
    public mutating func key(_ name: StaticString, first: Bool = false) {
        append(first ? "\"" : ",\"")
        append(name)
        append("\":")
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as it is.
    public mutating func string(_ value: String) {
        JSONString.write(value, to: &self)
    }

    /// The UTF-8 bytes `utf8` as a JSON string, escaped the same way.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        JSONString.write(utf8: utf8, to: &self)
    }

    /// A non-negative integer in decimal.
    public mutating func integer(_ value: Int) {
        guard value > 0 else {
            if value == 0 {
                writeByte(UInt8(ascii: "0"))
            } else {
                var text = String(value)
                text.withUTF8 { writeBytes($0) }
            }
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for any Int's digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { scratch in
            while rest > 0 {
                count += 1
                scratch[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            let written = UnsafeRawBufferPointer(rebasing: scratch[(24 - count)...])
            writeBytes(written.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Nanoseconds as milliseconds with three decimals (`12.345`).
    public mutating func milliseconds(nanos: UInt64) {
        let micros = Int(nanos / 1000)
        integer(micros / 1000)
        writeByte(UInt8(ascii: "."))
        let fraction = micros % 1000
        writeByte(UInt8(ascii: "0") + UInt8(fraction / 100))
        writeByte(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        writeByte(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// The current time as a quoted ISO 8601 UTC timestamp with milliseconds (`"2026-12-01T14:33:36.123Z"`).
    public mutating func timestamp() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let millis = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        writeByte(UInt8(ascii: "\""))
        storage.withStamp(millis: millis) { writeBytes($0) }
        writeByte(UInt8(ascii: "\""))
    }

    /// Writes `millis` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (24 bytes) into `out`.
    static func format(millis: Int64, into out: inout [UInt8]) {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let milli = Int(millis - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(daysSinceEpoch: days)
        func put(_ value: Int, _ at: Int, _ width: Int) {
            var v = value
            for i in stride(from: at + width - 1, through: at, by: -1) {
                out[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
        }
        put(Int(year), 0, 4)
        out[4] = UInt8(ascii: "-")
        put(month, 5, 2)
        out[7] = UInt8(ascii: "-")
        put(day, 8, 2)
        out[10] = UInt8(ascii: "T")
        put(secondOfDay / 3600, 11, 2)
        out[13] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, 14, 2)
        out[16] = UInt8(ascii: ":")
        put(secondOfDay % 60, 17, 2)
        out[19] = UInt8(ascii: ".")
        put(milli, 20, 3)
        out[23] = UInt8(ascii: "Z")
    }

    /// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(daysSinceEpoch: Int64) -> (Int64, Int, Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// One thread's line buffer and timestamp text: requests finishing in the same millisecond reuse the text
/// instead of formatting the date again (no `Date`, no `ISO8601FormatStyle`, which cost more than the rest
/// of the line). Only its own thread touches it (it is found through a pthread key).
final class LogLineStorage {
    /// The line memory kept between lines; nil while it is lent.
    private var kept: (base: UnsafeMutablePointer<UInt8>, capacity: Int)?
    private var stampMillis: Int64 = -1
    private var stamp: [UInt8] = Array(repeating: 0, count: 24)

    /// A new line starts with room for this many bytes; memory grown past `largestKept` (a line with a huge
    /// path or error) is freed after its line rather than kept for the thread's life.
    static let initialCapacity = 512
    static let largestKept = 64 << 10

    /// This thread's shard of every `LogWriter` queue (`ThreadSlot`), so the server's threads each get
    /// their own.
    let shard = ThreadSlot.current

    private init() {}

    deinit { kept?.base.deallocate() }

    /// This thread's storage.
    static var current: LogLineStorage {
        if let raw = pthread_getspecific(key) { return Unmanaged<LogLineStorage>.fromOpaque(raw).takeUnretainedValue() }
        let storage = LogLineStorage()
        pthread_setspecific(key, Unmanaged.passRetained(storage).toOpaque())
        return storage
    }

    /// Released when its thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            #if os(Linux)
                if let raw { Unmanaged<LogLineStorage>.fromOpaque(raw).release() }
            #else
                Unmanaged<LogLineStorage>.fromOpaque(raw).release()
            #endif
        }
        return key
    }()

    /// The kept memory, lent to one line: the storage holds none meanwhile, so a line formatted while
    /// another is (a log call inside a line's body) gets memory of its own instead of writing over it.
    func take() -> (base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        guard let lent = kept else {
            return (UnsafeMutablePointer<UInt8>.allocate(capacity: Self.initialCapacity), Self.initialCapacity)
        }
        kept = nil
        return lent
    }

    /// Takes the memory back after its line, kept for the next unless the storage already holds some or it
    /// grew past `largestKept`.
    func give(back base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        if kept == nil && capacity <= Self.largestKept {
            kept = (base, capacity)
        } else {
            base.deallocate()
        }
    }

    /// Calls `body` with the text of `millis` (see `LogLineBuffer.format`), formatted only when the
    /// millisecond changed.
    func withStamp(millis: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if millis != stampMillis {
            stampMillis = millis
            LogLineBuffer.format(millis: millis, into: &stamp)
        }
        stamp.withUnsafeBufferPointer(body)
    }
}
