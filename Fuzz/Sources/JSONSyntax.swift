/// A strict RFC 8259 syntax check, for replies Foundation's `JSONSerialization` cannot read although they are
/// valid JSON (a number like `3E7000000000000000000000`, whose exponent overflows its parser). The server
/// echoes request ids byte for byte, so such numbers are legitimate in replies.
struct JSONSyntax {
    private let bytes: [UInt8]
    private var index = 0

    /// Whether `bytes` is exactly one JSON value with optional surrounding whitespace.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var checker = JSONSyntax(bytes: bytes)
        checker.skipWhitespace()
        guard checker.value(depth: 0) else { return false }
        checker.skipWhitespace()
        return checker.index == bytes.count
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func literal(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected
        else { return false }
        index += expected.count
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        guard depth < 512, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return container(depth: depth, close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): return container(depth: depth, close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    private mutating func container(depth: Int, close: UInt8, keyed: Bool) -> Bool {
        index += 1
        skipWhitespace()
        if current == close {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            if keyed {
                guard current == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
            }
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == close else { return false }
            index += 1
            return true
        }
    }

    private mutating func string() -> Bool {
        index += 1
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return false }
                index += 1
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard let hex = current, isHex(hex) else { return false }
                        index += 1
                    }
                } else if !Array("\"\\/bfnrt".utf8).contains(escaped) {
                    return false
                }
            case 0..<0x20: return false
            default: break
            }
        }
        return false
    }

    private mutating func number() -> Bool {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            return false
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return true
    }

    private mutating func digits() -> Bool {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    private func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
