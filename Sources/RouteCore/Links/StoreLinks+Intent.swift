// Android in-app browsers (Instagram's, Facebook's, TikTok's: Chrome-based WebViews) load an `https:` link in
// place, even when an installed app verified that domain. An `intent:` URL is what they hand to the system
// instead: it opens the package when installed, else the fallback URL. Its fallback is always the web URL the
// landing page already offers, checked like any destination, never a new one.

extension StoreLinks {
    /// `intent://{host}{path}{?query}#Intent;scheme={scheme};package={package};S.browser_fallback_url={fallback};end`
    /// for `target` (an `http:`/`https:` URL; its fragment is dropped, the intent's own fragment takes its
    /// place), or nil when the target is not such a URL or the package name is not one Android accepts
    /// (letters, digits, `_` and `.`), so nothing a registry value holds can end the intent early.
    /// `fallback` is percent-encoded as one component; left out when nil (Android then offers the Play Store).
    public static func androidIntent(target: String, packageName: String, fallback: String?) -> String? {
        let scheme: String
        var rest = Substring(target)
        if rest.lowercased().hasPrefix("https://") {
            scheme = "https"
        } else if rest.lowercased().hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        rest = rest.dropFirst(scheme.count + 3)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let validPackage =
            !packageName.isEmpty
            && packageName.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
        guard validPackage, !rest.isEmpty, !rest.contains(where: { $0 == ";" || $0.isWhitespace }) else {
            return nil
        }
        var url = "intent://\(rest)#Intent;scheme=\(scheme);package=\(packageName);"
        if let fallback { url += "S.browser_fallback_url=\(percentEncode(fallback));" }
        return url + "end"
    }
}
