/// A validating JSON scanner over raw bytes: it checks the syntax (RFC 8259) and the nesting depth and
/// reports where values start and end, without building any tree.
///
/// The JSON-RPC layer uses it to split a batch and to find the members of a request object; params are
/// then decoded straight into the method's input type. Recursion is bounded by `maxDepth`, so a document
/// nested 10,000 deep fails fast instead of exhausting the stack. It does not check UTF-8: run
/// `UTF8Validation` over the document first.
public struct JSONScanner {
    /// Why the bytes were refused.
    public enum Failure: Error {
        /// Not JSON.
        case syntax
        /// Nested deeper than allowed.
        case tooDeep
    }

    /// The document.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// How many containers may be open around a value.
    public let maxDepth: Int
    /// The next byte to read.
    public var index: Int

    /// A scanner over `bytes` that starts reading at `start`.
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, start: Int = 0) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.index = start
    }

    /// True when every byte has been read.
    @inlinable
    public var atEnd: Bool { index >= bytes.count }

    /// The next byte, nil at the end.
    @inlinable
    public var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Moves past spaces, tabs and line breaks.
    @inlinable
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Moves past `byte`, which must be the next one.
    @inlinable
    public mutating func expect(_ byte: UInt8) throws(Failure) {
        guard current == byte else { throw .syntax }
        index += 1
    }

    /// Skips one value starting at the current byte (no leading whitespace); `depth` counts the containers
    /// already open around it.
    public mutating func skipValue(depth: Int) throws(Failure) {
        guard let byte = current else { throw .syntax }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < maxDepth else { throw .tooDeep }
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipWhitespace()
            if current == close {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                if isObject {
                    try skipString()
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"))
                    skipWhitespace()
                }
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(close)
                return
            }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        default: try skipNumber()
        }
    }

    /// Skips a string; returns whether it held escapes (then its bytes are not its value).
    @discardableResult
    public mutating func skipString() throws(Failure) -> Bool {
        try expect(UInt8(ascii: "\""))
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return escaped
            case UInt8(ascii: "\\"):
                escaped = true
                guard let next = current else { throw .syntax }
                index += 1
                switch next {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        guard let hex = current, Self.isHex(hex) else { throw .syntax }
                        index += 1
                    }
                default: throw .syntax
                }
            case 0..<0x20: throw .syntax
            default: break
            }
        }
        throw .syntax
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .syntax }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw .syntax }
        index += count
    }

    private mutating func skipNumber() throws(Failure) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw .syntax }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, Self.isDigit(digit) else { throw .syntax }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, Self.isDigit(digit) else { throw .syntax }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    /// `0`…`9`.
    @inlinable
    public static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `0`…`9`, `a`…`f`, `A`…`F`.
    @inlinable
    public static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
