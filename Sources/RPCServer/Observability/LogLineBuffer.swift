import Foundation

/// A log line being built, as bytes: one reusable buffer per thread, so formatting a line allocates nothing
/// once the thread has logged its first one.
///
/// Also holds the thread's timestamp text: requests finishing in the same millisecond reuse it instead of
/// formatting the date again (no `Date`, no `ISO8601FormatStyle`, which cost more than the rest of the line).
final class LogLineBuffer {
    var bytes: [UInt8] = []
    private var stampMillis: Int64 = -1
    private var stamp: [UInt8] = Array(repeating: 0, count: 24)

    private init() { bytes.reserveCapacity(512) }

    /// This thread's buffer, emptied.
    static var current: LogLineBuffer {
        let buffer: LogLineBuffer
        if let raw = pthread_getspecific(key) {
            buffer = Unmanaged<LogLineBuffer>.fromOpaque(raw).takeUnretainedValue()
        } else {
            buffer = LogLineBuffer()
            pthread_setspecific(key, Unmanaged.passRetained(buffer).toOpaque())
        }
        buffer.bytes.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Released when its thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            #if os(Linux)
                if let raw { Unmanaged<LogLineBuffer>.fromOpaque(raw).release() }
            #else
                Unmanaged<LogLineBuffer>.fromOpaque(raw).release()
            #endif
        }
        return key
    }()

    func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":` (keys are plain ASCII, never escaped).
    func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// A JSON string: quotes, backslashes and control characters escaped; other UTF-8 as it is.
    func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    append("\\u00")
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A non-negative integer in decimal.
    func integer(_ value: Int) {
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
    func milliseconds(nanos: UInt64) {
        let micros = Int(nanos / 1000)
        integer(micros / 1000)
        bytes.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// The current time as a quoted ISO 8601 UTC timestamp with milliseconds (`"2026-12-01T14:33:36.123Z"`).
    func timestamp() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let millis = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        if millis != stampMillis {
            stampMillis = millis
            Self.format(millis: millis, into: &stamp)
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: stamp)
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

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
