/// The byte-level transformations both sides of a comparison go through: percent-decoding, case folding
/// and path canonicalisation. Patterns and URLs use the same functions, so a folded pattern literal is
/// always comparable byte for byte with a folded URL.
enum TextForms {
    /// Percent-decodes `bytes`; nil when an escape is malformed or the result is not UTF-8, in which case
    /// callers compare the text as written (a URL iOS could not decode cannot match a decoded pattern).
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
                else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self) == nil ? nil : out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Lower-cases scalar by scalar (context-free, so folding pieces of a pattern gives the same bytes as
    /// folding the whole). Invalid UTF-8 is only ASCII-folded.
    static func folded(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return bytes.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 | 0x20 : $0 }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for scalar in text.unicodeScalars {
            out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
        }
        return out
    }

    /// The canonical form of a URL path: a leading `/`, no repeated `/`, exactly one trailing `/`.
    /// "" and "/" both become "/". The trailing slash is what lets `/buy/*` match `/buy` while `/buy`,
    /// `/buy/` and the pattern `/buy/` all compare equal.
    static func canonicalPath(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "/")]
        out.reserveCapacity(bytes.count + 2)
        for byte in bytes where !(byte == UInt8(ascii: "/") && out.last == UInt8(ascii: "/")) {
            out.append(byte)
        }
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        return out
    }

    /// Number of bytes of the UTF-8 scalar starting with `lead` (1 for a stray continuation byte, so a
    /// malformed string still advances).
    @inline(__always)
    static func scalarLength(_ lead: UInt8) -> Int {
        if lead < 0xC0 { return 1 }
        if lead < 0xE0 { return 2 }
        if lead < 0xF0 { return 3 }
        return 4
    }
}
