import Foundation

/// Builds fallback URLs: the URL plus the marker query item, placed before any fragment and joined with
/// `&` or `?` depending on whether a query already exists.
public enum FallbackURL {
    /// `url` with `policy`'s marker appended to its query (`…/l/a/42?ul_fallback=1`).
    public static func make(_ url: String, policy: FallbackPolicy) -> String {
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        let item = escape(policy.queryItem) + "=" + escape(policy.value)
        let separator: String
        if let mark = base.firstIndex(of: "?") {
            separator = base.index(after: mark) == base.endIndex || base.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return base + separator + item + fragment
    }

    /// Substitutes `{path}` and `{query}` in a route's `webFallback` template.
    static func expand(template: String, path: String, query: String?) -> String {
        template.replacingOccurrences(of: "{path}", with: path).replacingOccurrences(of: "{query}", with: query ?? "")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
