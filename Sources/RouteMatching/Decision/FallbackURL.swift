import Foundation

/// Builds fallback URLs: the URL plus the marker query item, placed before any fragment and joined with
/// `&` or `?` depending on whether a query already exists.
public enum FallbackURL {
    /// `url` with `policy`'s marker appended to its query (`…/l/a/42?ul_fallback=1`). Items already named
    /// like the marker are dropped first: an empty one would make the AASA exclusion (`?*` for every
    /// occurrence) fail, and iOS would send the browser straight back into the app.
    public static func make(_ url: String, policy: FallbackPolicy) -> String {
        // Built on UTF-8 bytes split at ASCII delimiters: it runs for every `CanOpen.Check` that falls back,
        // and splitting bytes spares the grapheme breaking that splitting `Character`s pays.
        let bytes = Array(url.utf8)
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[..<hash].firstIndex(of: UInt8(ascii: "?")) ?? hash
        let marker = Array(policy.queryItem.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + marker.count + policy.value.utf8.count + 8)
        out += bytes[..<mark]
        var separator = UInt8(ascii: "?")
        if mark < hash {
            for item in bytes[(mark + 1)..<hash].split(separator: UInt8(ascii: "&")) {
                let name = item.prefix { $0 != UInt8(ascii: "=") }
                if isMarker(name, marker) { continue }
                out.append(separator)
                out += item
                separator = UInt8(ascii: "&")
            }
        }
        out.append(separator)
        escape(marker, into: &out)
        out.append(UInt8(ascii: "="))
        escape(Array(policy.value.utf8), into: &out)
        out += bytes[hash...]
        return String(decoding: out, as: UTF8.self)
    }

    /// True when a query item's name is the marker, percent-escapes decoded (a name that does not decode to
    /// UTF-8 is compared as written).
    private static func isMarker(_ name: ArraySlice<UInt8>, _ marker: [UInt8]) -> Bool {
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
        return decoded == marker
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
    private static func escape(_ text: [UInt8], into out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
    }
}
