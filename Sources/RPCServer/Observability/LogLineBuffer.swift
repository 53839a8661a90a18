import Foundation
import JSONBytes
import Synchronization

/// A log line being built, as bytes, in a buffer reused by its thread: formatting a line allocates nothing
/// once the thread has logged its first one.
///
/// A value type written through `inout`: appending to an array held by a class would pay an exclusivity
/// check per byte. The thread's storage (`LogLineStorage`) lends its array for the line and takes it back.
struct LogLineBuffer {
    var bytes: [UInt8]
    /// The thread's storage, which keeps the timestamp text of the current millisecond.
    let storage: LogLineStorage

    /// Formats a line with `body` in this thread's buffer and hands its bytes and the thread's log shard
    /// (`LogLineStorage.shard`) to `use`.
    static func withCurrent<Result>(_ body: (inout LogLineBuffer) -> Void, _ use: ([UInt8], Int) -> Result) -> Result {
        let storage = LogLineStorage.current
        var line = LogLineBuffer(bytes: storage.take(), storage: storage)
        body(&line)
        defer { storage.give(back: line.bytes) }
        return use(line.bytes, storage.shard)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":` (keys are plain ASCII, never escaped).
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as it is.
    mutating func string(_ value: String) {
        JSONString.append(value, to: &bytes)
    }

    /// The UTF-8 bytes `utf8` as a JSON string, escaped the same way.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        JSONString.append(utf8: utf8, to: &bytes)
    }

    /// A non-negative integer in decimal.
    mutating func integer(_ value: Int) {
        guard value > 0 else {
            if value == 0 { bytes.append(UInt8(ascii: "0")) } else { bytes.append(contentsOf: String(value).utf8) }
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
            bytes.append(contentsOf: scratch[(24 - count)...])
        }
    }

    /// Nanoseconds as milliseconds with three decimals (`12.345`).
    mutating func milliseconds(nanos: UInt64) {
        let micros = Int(nanos / 1000)
        integer(micros / 1000)
        bytes.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// The current time as a quoted ISO 8601 UTC timestamp with milliseconds (`"2026-12-01T14:33:36.123Z"`).
    mutating func timestamp() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let millis = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        bytes.append(UInt8(ascii: "\""))
        storage.appendStamp(millis: millis, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
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
    private var buffer: [UInt8] = []
    private var stampMillis: Int64 = -1
    private var stamp: [UInt8] = Array(repeating: 0, count: 24)

    /// This thread's shard of every `LogWriter` queue: threads are numbered as they first log, so the
    /// server's threads each get their own.
    let shard: Int

    private static let threadsSeen = Atomic<Int>(0)

    private init() {
        buffer.reserveCapacity(512)
        shard = Self.threadsSeen.add(1, ordering: .relaxed).oldValue
    }

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

    /// The buffer, empty, lent to one line (the storage holds none meanwhile, so it is never shared).
    func take() -> [UInt8] {
        var lent: [UInt8] = []
        swap(&lent, &buffer)
        lent.removeAll(keepingCapacity: true)
        return lent
    }

    func give(back bytes: [UInt8]) { buffer = bytes }

    func appendStamp(millis: Int64, to bytes: inout [UInt8]) {
        if millis != stampMillis {
            stampMillis = millis
            LogLineBuffer.format(millis: millis, into: &stamp)
        }
        bytes.append(contentsOf: stamp)
    }
}
