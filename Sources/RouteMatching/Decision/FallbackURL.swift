import Foundation

/// Builds fallback URLs: the URL plus the marker query item, placed before any fragment and joined with
/// `&` or `?` depending on whether a query already exists.
public enum FallbackURL {
    /// `url` with `policy`'s marker appended to its query (`…/l/a/42?ul_fallback=1`). Items already named
    /// like the marker are dropped first: an empty one would make the AASA exclusion (`?*` for every
    /// occurrence) fail, and iOS would send the browser straight back into the app.
    public static func make(_ url: String, policy: FallbackPolicy) -> String {
        // Built on UTF-8 bytes split at ASCII delimiters, straight into the result's storage: it runs for
        // every `CanOpen.Check` that falls back, where arrays of bytes and of split items were a fifth of
        // the call's allocations, and splitting `Character`s paid grapheme breaking.
        var url = url
        var name = policy.queryItem
        var value = policy.value
        return url.withUTF8 { bytes in
            name.withUTF8 { marker in
                value.withUTF8 { value in
                    String(unsafeUninitializedCapacity: bytes.count + 3 * (marker.count + value.count) + 2) { out in
                        var writer = Writer(out: out)
                        write(bytes, marker: marker, value: value, to: &writer)
                        return writer.count
                    }
                }
            }
        }
    }

    /// Appends to the result's storage, which `make` sizes for the worst case (every marker byte escaped).
    private struct Writer {
        let out: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            out[count] = byte
            count += 1
        }

        mutating func append(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            for byte in bytes { append(byte) }
        }
    }

    private static func write(
        _ bytes: UnsafeBufferPointer<UInt8>, marker: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
        to out: inout Writer
    ) {
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
        out.append(bytes[..<mark])
        var separator = UInt8(ascii: "?")
        if mark < hash {
            // The query's items, in order, without empty ones (as splitting at `&` omits them).
            var start = mark + 1
            while start < hash {
                let end = bytes[start..<hash].firstIndex(of: UInt8(ascii: "&")) ?? hash
                let item = bytes[start..<end]
                start = end + 1
                if item.isEmpty { continue }
                let name = item.prefix { $0 != UInt8(ascii: "=") }
                if isMarker(name, marker) { continue }
                out.append(separator)
                out.append(item)
                separator = UInt8(ascii: "&")
            }
        }
        out.append(separator)
        escape(marker, into: &out)
        out.append(UInt8(ascii: "="))
        escape(value, into: &out)
        out.append(bytes[hash...])
    }

    /// True when a query item's name is the marker, percent-escapes decoded (a name that does not decode to
    /// UTF-8 is compared as written).
    private static func isMarker(_ name: Slice<UnsafeBufferPointer<UInt8>>, _ marker: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard name.contains(UInt8(ascii: "%")) else { return name.elementsEqual(marker) }
        var decoded: [UInt8] = []
        var index = name.startIndex
        while index < name.endIndex {
            if name[index] == UInt8(ascii: "%") {
                guard index + 2 < name.endIndex, let high = hexValue(name[index + 1]),
                    let low = hexValue(name[index + 2])
                else { return name.elementsEqual(marker) }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(name[index])
                index += 1
            }
        }
        guard String(validating: decoded, as: UTF8.self) != nil else { return name.elementsEqual(marker) }
        return decoded.elementsEqual(marker)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Substitutes `{path}` and `{query}` in a route's `webFallback` template.
    package static func expand(template: String, path: String, query: String?) -> String {
        template.replacingOccurrences(of: "{path}", with: path).replacingOccurrences(of: "{query}", with: query ?? "")
    }

    /// Percent-escapes everything but ASCII letters, digits and `-._~`.
    private static func escape(_ text: UnsafeBufferPointer<UInt8>, into out: inout Writer) {
        let digits: StaticString = "0123456789ABCDEF"
        for byte in text {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(digits.utf8Start[Int(byte >> 4)])
                out.append(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
    }
}
