/// A strict RFC 8259 syntax check that says where and what, run before Foundation reads a document.
///
/// iOS reads an apple-app-site-association file as strict JSON and ignores the whole file when it is not:
/// a single trailing comma turns every universal link of the domain off. Foundation's `JSONSerialization`
/// and `JSONDecoder` on Linux accept such a comma (and other JSON5-isms), so a tool that trusts them says
/// "match" for a file iOS never reads. This checker accepts exactly RFC 8259 (plus a leading UTF-8 byte
/// order mark, which RFC 8259 allows a reader to ignore) and reports the first problem with its line,
/// column and byte offset. It is iterative, so a deeply nested input cannot overflow the stack.
public enum StrictJSON {
    /// Deeper nesting is refused (Foundation's own limit is 512 as well).
    public static let maximumDepth = 512

    /// Throws `StrictJSONError` unless `bytes` hold exactly one JSON value, with optional surrounding whitespace.
    public static func validate(_ bytes: some Collection<UInt8>) throws(StrictJSONError) {
        var scanner = Scanner(Array(bytes))
        try scanner.document()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// One entry per open container: true for an object.
        var stack: [Bool] = []

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func document() throws(StrictJSONError) {
            skipWhitespace()
            guard current != nil else { throw failure("the document is empty: expected a JSON value") }
            try value()
            skipWhitespace()
            if let byte = current { throw failure("unexpected \(describe(byte)) after the end of the JSON value") }
        }

        /// One value; containers are walked with `stack` rather than recursion.
        mutating func value() throws(StrictJSONError) {
            try scalarOrOpen()
            while let isObject = stack.last {
                skipWhitespace()
                guard let byte = current else {
                    throw failure(
                        "the document ends inside an \(isObject ? "object" : "array"): expected ',' or '\(isObject ? "}" : "]")'"
                    )
                }
                if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    stack.removeLast()
                    continue
                }
                guard byte == UInt8(ascii: ",") else {
                    throw failure(
                        "expected ',' or '\(isObject ? "}" : "]")' after \(isObject ? "a member" : "an element"), found \(describe(byte))"
                    )
                }
                let comma = index
                index += 1
                skipWhitespace()
                if let next = current, next == UInt8(ascii: "}") || next == UInt8(ascii: "]") {
                    index = comma
                    throw failure(
                        "trailing comma before '\(Character(Unicode.Scalar(next)))': JSON allows no comma after the last \(isObject ? "member" : "element")"
                    )
                }
                if isObject { try member() } else { try scalarOrOpen() }
            }
        }

        /// A scalar, or the opening of a container (with its first member or element, or its immediate end).
        mutating func scalarOrOpen() throws(StrictJSONError) {
            skipWhitespace()
            guard let byte = current else { throw failure("the document ends where a value was expected") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                guard stack.count < StrictJSON.maximumDepth else {
                    throw failure("nesting deeper than \(StrictJSON.maximumDepth) levels")
                }
                index += 1
                stack.append(isObject)
                skipWhitespace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if current == close {
                    index += 1
                    stack.removeLast()
                } else if isObject {
                    try member()
                } else {
                    try scalarOrOpen()
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw failure("expected a JSON value, found \(describe(byte))")
            }
        }

        /// `"name": value` inside an object (the value may open a container).
        mutating func member() throws(StrictJSONError) {
            skipWhitespace()
            guard let byte = current else { throw failure("the document ends where a member name was expected") }
            guard byte == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes, found \(describe(byte))")
            }
            try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw failure("expected ':' after the member name, found \(current.map(describe) ?? "the end")")
            }
            index += 1
            try scalarOrOpen()
        }

        mutating func string() throws(StrictJSONError) {
            let start = index
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    try escape()
                case 0..<0x20:
                    throw failure("control character U+00\(hex(byte)) inside a string (write it as an escape)")
                case 0x80...:
                    try utf8Sequence()
                default:
                    index += 1
                }
            }
            index = start
            throw failure("unterminated string")
        }

        mutating func escape() throws(StrictJSONError) {
            index += 1
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                if (0xD800...0xDBFF).contains(unit) {
                    guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure("unpaired surrogate escape \\u\(String(unit, radix: 16, uppercase: true))") }
                    index += 1
                    let low = try hexUnit()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw failure("unpaired surrogate escape \\u\(String(unit, radix: 16, uppercase: true))")
                    }
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw failure("unpaired surrogate escape \\u\(String(unit, radix: 16, uppercase: true))")
                }
            default:
                index -= 1
                throw failure("invalid escape \\\(describeRaw(byte)) in a string")
            }
        }

        /// `uXXXX` at `index` (just after the backslash); returns the code unit.
        mutating func hexUnit() throws(StrictJSONError) -> UInt32 {
            index += 1
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = Self.hexValue(byte) else {
                    throw failure("\\u must be followed by four hexadecimal digits")
                }
                unit = unit << 4 | digit
                index += 1
            }
            return unit
        }

        static func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        /// One well-formed UTF-8 sequence of two to four bytes (no overlongs, surrogates or values past U+10FFFF).
        mutating func utf8Sequence() throws(StrictJSONError) {
            let lead = bytes[index]
            let count: Int
            var range: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: (count, range) = (2, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: (count, range) = (2, 0x80...0x9F)
            case 0xF0: (count, range) = (3, 0x90...0xBF)
            case 0xF1...0xF3: count = 3
            case 0xF4: (count, range) = (3, 0x80...0x8F)
            default: throw failure("invalid UTF-8 byte 0x\(hex(lead))")
            }
            for offset in 1...count {
                let position = index + offset
                let allowed = offset == 1 ? range : 0x80...0xBF
                guard position < bytes.count, allowed.contains(bytes[position]) else {
                    throw failure("invalid UTF-8 sequence starting with byte 0x\(hex(lead))")
                }
            }
            index += count + 1
        }

        mutating func number() throws(StrictJSONError) {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, Self.isDigit(first) else {
                index = start
                throw failure("'-' must be followed by a digit")
            }
            index += 1
            if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
                index = start
                throw failure("a number may not have a leading zero")
            }
            skipDigits()
            if current == UInt8(ascii: ".") {
                index += 1
                guard let byte = current, Self.isDigit(byte) else { throw failure("expected a digit after '.'") }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let byte = current, Self.isDigit(byte) else { throw failure("expected a digit in the exponent") }
                skipDigits()
            }
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func skipDigits() {
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }

        mutating func literal(_ word: StaticString) throws(StrictJSONError) {
            let start = index
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for byte in expected {
                guard current == byte else {
                    index = start
                    throw failure("expected '\(word)'")
                }
                index += 1
            }
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// The error at `index`, with its 1-based line and column (columns count Unicode scalars).
        func failure(_ message: String) -> StrictJSONError {
            var line = 1
            var lineStart = 0
            for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            let prefix = bytes[lineStart..<min(index, bytes.count)]
            let column = prefix.reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return StrictJSONError(message: message, line: line, column: column, offset: index)
        }

        func describe(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? "'\(describeRaw(byte))'" : "byte 0x\(hex(byte))"
        }

        func describeRaw(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "0x\(hex(byte))"
        }

        func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
    }
}

/// Why a document is not strict JSON, and where: 1-based line and column, and the 0-based byte offset.
public struct StrictJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `trailing comma before '}': JSON allows no comma after the last member`.
    public var message: String
    /// The line of the problem, from 1.
    public var line: Int
    /// The column in that line, from 1, counted in Unicode scalars.
    public var column: Int
    /// The byte offset from the start of the document, from 0.
    public var offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line 17, column 15 (byte 412): trailing comma before '}': ...`.
    public var description: String { "line \(line), column \(column) (byte \(offset)): \(message)" }
}
