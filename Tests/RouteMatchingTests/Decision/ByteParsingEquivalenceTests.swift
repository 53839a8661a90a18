import Foundation
import Testing

@testable import RouteMatching

/// `LinkURL` and `FallbackURL` parse UTF-8 bytes for speed; these tests hold them equal to the
/// `Character`-based versions they replaced (kept below as the reference) on random URLs built from the
/// pieces that matter: delimiters, escapes, the marker, user info, ports, IPv6, case and non-ASCII text.
@Suite struct ByteParsingEquivalenceTests {
    static let pieces = [
        "https:", "HTTPS:", "badoo:", "//", "/", "m.badoo.com", "M.Badoo.COM", "m.badoo.com.", "user@", ":8443",
        "[::1]", "[FE80::1]", "?", "#", "&", "=", "ul_fallback", "%75l_fallback", "ul%5ffallback", "%zz", "%", "a",
        "é", "%C3%A9", "x=1", "l/a/42", "..", "web", "%ff", "+", " ", "2x:", "1:",
    ]

    static func randomURL(_ random: inout SeededRandom) -> String {
        let start = ["https://", "HTTPS://", "badoo:", "https:", "badoo://", ""].randomElement(using: &random)!
        return start
            + (0..<Int.random(in: 1...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test func linkURLEqualsTheCharacterParser() {
        var random = SeededRandom(seed: 0x5EED_0101)
        var parsed = 0
        for _ in 0..<50_000 {
            let text = Self.randomURL(&random)
            let fast = LinkURL(text)
            let reference = ReferenceLinkURL.parse(text)
            #expect(fast == reference, "\(text)")
            if fast != nil { parsed += 1 }
        }
        #expect(parsed > 30_000)
    }

    @Test func fallbackURLEqualsTheCharacterBuilder() {
        var random = SeededRandom(seed: 0x5EED_0102)
        let policies = [
            FallbackPolicy(), FallbackPolicy(queryItem: "web", value: "yes"),
            FallbackPolicy(queryItem: "ul_fallback", value: "a b/é"),
        ]
        for _ in 0..<50_000 {
            let text = Self.randomURL(&random)
            let policy = policies.randomElement(using: &random)!
            #expect(
                FallbackURL.make(text, policy: policy) == ReferenceFallbackURL.make(text, policy: policy), "\(text)")
        }
    }
}

/// The `Character`-based parser `LinkURL.init?(_:)` replaced.
enum ReferenceLinkURL {
    static func parse(_ string: String) -> LinkURL? {
        var rest = Substring(string)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let scheme = rest[..<colon]
        guard let first = scheme.unicodeScalars.first, isAlpha(first),
            scheme.unicodeScalars.allSatisfy({
                isAlpha($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        rest = rest[rest.index(after: colon)...]
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var host = ""
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            var hostPort = rest[..<end]
            if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
            if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
                host = String(hostPort[...close]).lowercased()
            } else {
                if let colon = hostPort.firstIndex(of: ":") { hostPort = hostPort[..<colon] }
                host = String(hostPort).lowercased()
                while host.hasSuffix(".") { host.removeLast() }
            }
            rest = rest[end...]
        }
        var url = LinkURL(scheme: String(scheme), host: "", path: String(rest), query: query, fragment: fragment)
        url.host = host
        return url
    }

    private static func isAlpha(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

/// The `Character`-based builder `FallbackURL.make` replaced.
enum ReferenceFallbackURL {
    static func make(_ url: String, policy: FallbackPolicy) -> String {
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

    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        return out
    }
}
