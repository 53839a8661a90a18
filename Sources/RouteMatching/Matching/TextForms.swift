/// The byte-level transformations both sides of a comparison go through: percent-decoding, case folding
/// and path canonicalisation. Patterns and URLs use the same functions, so a folded pattern literal is
/// always comparable byte for byte with a folded URL.
enum TextForms {
    /// Percent-decodes `bytes` as UTF-8. A malformed escape, or a run of escapes that is not valid UTF-8,
    /// stays as written: what cannot be decoded is compared literally rather than rejecting the URL.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var run: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let runStart = i
            run.removeAll(keepingCapacity: true)
            while i + 2 < bytes.count, bytes[i] == UInt8(ascii: "%"), let high = hexValue(bytes[i + 1]),
                let low = hexValue(bytes[i + 2])
            {
                run.append(high << 4 | low)
                i += 3
            }
            if run.isEmpty {
                out.append(bytes[i])
                i += 1
            } else if String(validating: run, as: UTF8.self) != nil {
                out.append(contentsOf: run)
            } else {
                out.append(contentsOf: bytes[runStart..<i])
            }
        }
        return out
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
            return [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in
                for (index, byte) in bytes.enumerated() { out[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte }
                count = bytes.count
            }
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

    /// The canonical form of a URL path: a leading `/`, no repeated `/`, no trailing `/` except for the root
    /// path, which is `/` (so "" and "/" are the same path, and so are `/buy` and `/buy/`).
    static func canonicalPath(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count + 1) { out, count in
            out[0] = UInt8(ascii: "/")
            var n = 1
            for byte in bytes where !(byte == UInt8(ascii: "/") && out[n - 1] == UInt8(ascii: "/")) {
                out[n] = byte
                n += 1
            }
            while n > 1 && out[n - 1] == UInt8(ascii: "/") { n -= 1 }
            count = n
        }
    }

    static func canonicalPath(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { canonicalPath($0) }
    }

    /// `bytes` percent-decoded and/or folded.
    static func transformed(_ bytes: [UInt8], decoded: Bool, folded: Bool) -> [UInt8] {
        var bytes = bytes
        if decoded { bytes = percentDecoded(bytes) }
        if folded && needsFolding(bytes) { bytes = self.folded(bytes) }
        return bytes
    }

    /// False when folding would change nothing (ASCII without upper-case letters).
    static func needsFolding(_ bytes: [UInt8]) -> Bool {
        bytes.contains { $0 &- 0x41 < 26 || $0 >= 0x80 }
    }

    /// `bytes` with every run of `/` collapsed to one.
    static func collapsingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes where !(byte == UInt8(ascii: "/") && out.last == UInt8(ascii: "/")) { out.append(byte) }
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
