/// Skipping without checking: for bytes already validated (the dispatcher's request objects, whose
/// document `skipValue` has just checked whole), or read again later by a decoder that checks them (the
/// Swift client's responses). Strings end at the first unescaped quote, containers at the bracket that
/// balances the first, anything else at the next `,`, `}`, `]` or whitespace. On valid JSON every value
/// ends exactly where `skipValue` ends it, at a fraction of the cost.
extension JSONScanner {
    /// Skips a string starting at the current byte (a quote); false when it is not one or never ends.
    public mutating func skipUncheckedString() -> Bool {
        guard current == UInt8(ascii: "\"") else { return false }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return true
            default: index += 1
            }
        }
        return false
    }

    /// Skips one value starting at the current byte; false when there is none or it never ends.
    public mutating func skipUncheckedValue() -> Bool {
        guard let first = current else { return false }
        switch first {
        case UInt8(ascii: "\""):
            return skipUncheckedString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipUncheckedString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0D, 0x0A:
                    return index > start
                default: index += 1
                }
            }
            return index > start
        }
    }

    /// Skips the object starting at the current byte (leading whitespace allowed), handing `member` the
    /// range of each member's name (quotes included) and of its value, in order; false when the bytes are
    /// not an object's shape or `member` returns false.
    public mutating func skipUncheckedObject(member: (_ name: Range<Int>, _ value: Range<Int>) -> Bool) -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            let nameStart = index
            guard skipUncheckedString() else { return false }
            let name = nameStart..<index
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard skipUncheckedValue(), member(name, valueStart..<index) else { return false }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { return false }
            index += 1
            return true
        }
    }
}
