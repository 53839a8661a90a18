/// Reads a JSON object whose members are all strings, as the flat params readers (`FlatParams`) need.
///
/// The bytes were already validated as JSON (by `JSONScanner`), so this only follows the shape;
/// anything else (nested values, numbers, duplicate members, escapes other than `\"`, `\\` and `\/`)
/// gives nil. Those three are decoded, because ETags are quoted: every `ifNoneMatch` holds `\"`.
public enum FlatJSONObject {
    /// The values of the members named `keys` (UTF-8), in that order, when the object in `bytes` has
    /// exactly those members, each a plain string; nil otherwise (and for more than 64 keys).
    public static func strings(_ slice: ArraySlice<UInt8>, keys: [[UInt8]]) -> [String]? {
        // Read through a buffer pointer: the slice's bounds checks cost more than the reading itself.
        slice.withUnsafeBufferPointer { strings($0, keys: keys) }
    }

    private static func strings(_ bytes: UnsafeBufferPointer<UInt8>, keys: [[UInt8]]) -> [String]? {
        // Filled in place, slot by slot, with a bit per slot seen: an array of optionals would cost a runtime
        // metadata lookup per call (its storage type is not prespecialized) and a second array to unwrap.
        guard keys.count <= 64 else { return nil }
        var values = [String](repeating: "", count: keys.count)
        var seen: UInt64 = 0
        var i = 0
        let end = bytes.count
        func skipSpace() {
            while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }
        /// The string starting at `i` (a quote): where its contents are, and their decoded bytes when they
        /// hold an escape; nil for other escapes.
        func plainString() -> (contents: Range<Int>, decoded: [UInt8]?)? {
            guard i < end, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            var decoded: [UInt8]?
            while j < end, bytes[j] != UInt8(ascii: "\"") {
                if bytes[j] == UInt8(ascii: "\\") {
                    guard j + 1 < end else { return nil }
                    let escaped = bytes[j + 1]
                    guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") || escaped == UInt8(ascii: "/")
                    else { return nil }
                    if decoded == nil { decoded = Array(bytes[start..<j]) }
                    decoded!.append(escaped)
                    j += 2
                    continue
                }
                decoded?.append(bytes[j])
                j += 1
            }
            guard j < end else { return nil }
            i = j + 1
            return (start..<j, decoded)
        }
        skipSpace()
        guard i < end, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipSpace()
        if i < end, bytes[i] == UInt8(ascii: "}") { return nil }
        while true {
            skipSpace()
            guard let key = plainString() else { return nil }
            skipSpace()
            guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            guard let value = plainString() else { return nil }
            let slot = keys.firstIndex { candidate in
                key.decoded.map { candidate == $0 } ?? candidate.elementsEqual(bytes[key.contents])
            }
            guard let slot, seen & (1 << slot) == 0 else { return nil }
            seen |= 1 << slot
            values[slot] =
                value.decoded.map { String(decoding: $0, as: UTF8.self) }
                ?? String(decoding: bytes[value.contents], as: UTF8.self)
            skipSpace()
            guard i < end else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { return nil }
            break
        }
        return seen == (keys.count == 64 ? UInt64.max : (1 << keys.count) - 1) ? values : nil
    }
}
