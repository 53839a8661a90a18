import Foundation

/// Builds fallback URLs: the URL plus the marker query item, placed before any fragment and joined with
/// `&` or `?` depending on whether a query already exists.
public enum FallbackURL {
    /// `url` with `policy`'s marker appended to its query (`…/l/a/42?ul_fallback=1`). Items already named
    /// like the marker are dropped first: an empty one would make the AASA exclusion (`?*` for every
    /// occurrence) fail, and iOS would send the browser straight back into the app.
    public static func make(_ url: String, policy: FallbackPolicy) -> String {
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        var items: [Substring] = []
        if let mark = base.firstIndex(of: "?") {
            items = base[base.index(after: mark)...].split(separator: "&").filter { item in
                let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                return (String(name).removingPercentEncoding ?? String(name)) != policy.queryItem
            }
            base = base[..<mark]
        }
        items.append(Substring(escape(policy.queryItem) + "=" + escape(policy.value)))
        return base + "?" + items.joined(separator: "&") + fragment
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
