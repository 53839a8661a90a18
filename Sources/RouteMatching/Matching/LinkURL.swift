/// A URL split the way iOS sees it for matching.
///
/// Parsed by hand rather than through Foundation's `URL`, so percent-escapes, their hex case, `%2F` and the
/// difference between an empty and an absent query or fragment survive exactly as written: all of them change
/// what an `apple-app-site-association` rule matches.
public struct LinkURL: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lower-cased (`https`, or a custom scheme such as `badoo`).
    public var scheme: String
    /// The host, lower-cased, with a trailing dot, user info and port removed; "" when there is none.
    public var host: String
    /// The path as written ("" when absent).
    public var path: String
    /// The query as written without its `?`; nil when the URL has no `?` at all.
    public var query: String?
    /// The fragment as written without its `#`; nil when the URL has no `#` at all.
    public var fragment: String?

    /// Builds a URL from its parts; `scheme` and `host` are normalised as `init?(_:)` would.
    public init(scheme: String, host: String, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme.lowercased()
        self.host = Self.normalizedHost(host)
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Parses `scheme:[//authority]path[?query][#fragment]`; nil when there is no valid scheme.
    ///
    /// Splits on the UTF-8 bytes of the ASCII delimiters (always scalar boundaries), not on `Character`s: it
    /// runs for every `CanOpen.Check`, and grapheme breaking was a tenth of the call's cost. A delimiter
    /// followed by a combining mark therefore still delimits, as it does for iOS.
    public init?(_ string: String) {
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = utf8[..<colon]
        guard let first = scheme.first, Self.isAlpha(first),
            scheme.allSatisfy({ Self.isAlpha($0) || Self.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        var start = utf8.index(after: colon)
        var end = utf8.endIndex
        var fragment: String?
        if let hash = utf8[start..<end].firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(string[utf8.index(after: hash)..<end])
            end = hash
        }
        var query: String?
        if let mark = utf8[start..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = String(string[utf8.index(after: mark)..<end])
            end = mark
        }
        var host = ""
        let rest = utf8[start..<end]
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authorityStart = utf8.index(start, offsetBy: 2)
            let authorityEnd = utf8[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            host = Self.hostOfAuthority(string[authorityStart..<authorityEnd])
            start = authorityEnd
        }
        self.scheme =
            scheme.allSatisfy { !Self.isUpper($0) } ? String(string[..<colon]) : String(string[..<colon]).lowercased()
        self.host = host
        self.path = String(string[start..<end])
        self.query = query
        self.fragment = fragment
    }

    /// True for the schemes universal links and App Links use (`https`, `http`); `scheme` lower-cased, as
    /// `scheme` is here. Every other scheme is a custom one: decided from the app's scheme rules, never by an
    /// AASA.
    public static func isWebScheme(_ scheme: String) -> Bool { scheme == "https" || scheme == "http" }

    /// The URL written back: scheme, `//host` when there is one, path, query and fragment as written.
    public var description: String {
        var text = scheme + ":"
        if !host.isEmpty { text += "//" + host }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { isUpper(byte) || (0x61...0x7A).contains(byte) }

    private static func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Drops user info and port (an IPv6 literal keeps its brackets), then normalises.
    private static func hostOfAuthority(_ authority: Substring) -> String {
        let utf8 = authority.utf8
        var hostPort = authority
        if let at = utf8.lastIndex(of: UInt8(ascii: "@")) { hostPort = authority[utf8.index(after: at)...] }
        if hostPort.utf8.first == UInt8(ascii: "["), let close = hostPort.utf8.firstIndex(of: UInt8(ascii: "]")) {
            return String(hostPort[...close]).lowercased()
        }
        if let colon = hostPort.utf8.firstIndex(of: UInt8(ascii: ":")) { hostPort = hostPort[..<colon] }
        return normalizedHost(String(hostPort))
    }

    /// Hosts compare case-insensitively and `example.com.` is `example.com`.
    package static func normalizedHost(_ host: String) -> String {
        var host = host.utf8.contains(where: { $0 >= 0x80 || isUpper($0) }) ? host.lowercased() : host
        while host.utf8.last == UInt8(ascii: ".") { host.removeLast() }
        return host
    }
}
