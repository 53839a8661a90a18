/// A validating JSON scanner over raw bytes: it checks the syntax (RFC 8259) and the nesting depth and
/// reports where values start and end, without building any tree.
///
/// The JSON-RPC layer uses it to split a batch and to find the members of a request object; params are
/// then decoded straight into the method's input type. Recursion is bounded by `maxDepth`, so a document
/// nested 10,000 deep fails fast instead of exhausting the stack.
struct JSONScanner {
    enum Failure: Error {
        /// Not JSON.
        case syntax
        /// Nested deeper than allowed.
        case tooDeep
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, start: Int = 0) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.index = start
    }

    var atEnd: Bool { index >= bytes.count }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard current == byte else { throw .syntax }
        index += 1
    }

    /// Skips one value starting at the current byte (no leading whitespace); `depth` counts the containers
    /// already open around it.
    mutating func skipValue(depth: Int) throws(Failure) {
        guard let byte = current else { throw .syntax }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw .tooDeep }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try skipString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                return
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw .tooDeep }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"))
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
    mutating func skipString() throws(Failure) -> Bool {
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

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}

/// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF).
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return false
            }
            guard i + length <= n else { return false }
            let b1 = bytes[i + 1]
            guard b1 >= lower && b1 <= upper else { return false }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
