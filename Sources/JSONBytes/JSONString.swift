/// Writes a Swift string as a JSON string into a byte buffer, the one escaper of the code base.
///
/// `"` and `\` are escaped with a backslash, line feed, carriage return and tab as `\n`, `\r`, `\t`, other
/// control characters as `\u00XX` (lower-case hex); everything else, `/` and DEL included, is copied as it
/// is. That is what the codec's `JSONEncoder` writes for printable ASCII (`withoutEscapingSlashes`), so a
/// writer of its own bytes (`DecisionJSON`) answers exactly what the encoder would.
public enum JSONString {
    /// Appends `value`, quoted and escaped, to `out`.
    public static func append(_ value: String, to out: inout [UInt8]) {
        write(value, to: &out)
    }

    /// Writes `value`, quoted and escaped, to `out`, whatever buffer it is.
    @inlinable
    public static func write<Sink: JSONByteSink>(_ value: String, to out: inout Sink) {
        var value = value
        value.withUTF8 { write(utf8: $0, to: &out) }
    }

    /// Appends `value` quoted and escaped when it is printable ASCII (U+0020…U+007E); otherwise appends
    /// nothing and returns false, for writers that leave other text to `JSONEncoder` (which escapes
    /// non-ASCII and control characters its own way).
    public static func appendPrintableASCII(_ value: String, to out: inout [UInt8]) -> Bool {
        var value = value
        return value.withUTF8 { utf8 in
            // The values written this way (URLs, reasons, ETags) are nearly always printable ASCII with nothing to
            // escape: one pass finds that, and they are copied whole.
            guard
                utf8.contains(where: {
                    $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
                })
            else {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: utf8)
                out.append(UInt8(ascii: "\""))
                return true
            }
            guard !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
            append(utf8: utf8, to: &out)
            return true
        }
    }

    /// Appends the UTF-8 bytes `utf8` as a JSON string.
    public static func append(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        write(utf8: utf8, to: &out)
    }

    /// Writes the UTF-8 bytes `utf8` as a JSON string to `out`, whatever buffer it is (the request log builds
    /// its lines in memory of its own).
    @inlinable
    public static func write<Sink: JSONByteSink>(utf8: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        out.writeByte(UInt8(ascii: "\""))
        // Most values (paths, URLs, ids, ETags) need no escape: checked, then copied whole, which is cheaper
        // than appending them byte by byte.
        guard needsEscape(utf8) else {
            out.writeBytes(utf8)
            out.writeByte(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.writeByte(UInt8(ascii: "\\"))
                out.writeByte(byte)
            case 0x0A: writeEscape(UInt8(ascii: "n"), to: &out)
            case 0x0D: writeEscape(UInt8(ascii: "r"), to: &out)
            case 0x09: writeEscape(UInt8(ascii: "t"), to: &out)
            case 0..<0x20:
                writeEscape(UInt8(ascii: "u"), to: &out)
                out.writeByte(UInt8(ascii: "0"))
                out.writeByte(UInt8(ascii: "0"))
                out.writeByte(hexDigit(byte >> 4))
                out.writeByte(hexDigit(byte & 0xF))
            default: out.writeByte(byte)
            }
        }
        out.writeByte(UInt8(ascii: "\""))
    }

    /// Whether `utf8` holds a byte JSON escapes (a control character, `"` or `\`). Eight bytes at a time:
    /// every request's log line and every JSON answer asks it of its paths and URLs.
    @inlinable
    public static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Bit-twiddling existence tests (exact for "any byte"): a byte below 0x20, or equal to `"` or `\`.
        @inline(__always) func escapes(_ word: UInt64) -> Bool {
            let control = (word &- ones &* 0x20) & ~word & highs
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let equal = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
            return control | equal != 0
        }
        var offset = 0
        while offset + 8 <= utf8.count {
            if escapes(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)) { return true }
            offset += 8
        }
        while offset < utf8.count {
            let byte = base[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    @inlinable
    static func writeEscape<Sink: JSONByteSink>(_ letter: UInt8, to out: inout Sink) {
        out.writeByte(UInt8(ascii: "\\"))
        out.writeByte(letter)
    }

    /// The lower-case hex digit of `nibble` (0…15).
    @inlinable
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// A byte buffer `JSONString` writes to.
public protocol JSONByteSink {
    mutating func writeByte(_ byte: UInt8)
    mutating func writeBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONByteSink where Element == UInt8 {
    @inlinable public mutating func writeByte(_ byte: UInt8) { append(byte) }
    @inlinable public mutating func writeBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
