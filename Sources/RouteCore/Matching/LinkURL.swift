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
    public init?(_ string: String) {
        var rest = Substring(string)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let scheme = rest[..<colon]
        guard let first = scheme.unicodeScalars.first, Self.isAlpha(first),
            scheme.unicodeScalars.allSatisfy({
                Self.isAlpha($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
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
            host = Self.hostOfAuthority(rest[..<end])
            rest = rest[end...]
        }
        self.scheme = scheme.lowercased()
        self.host = host
        self.path = String(rest)
        self.query = query
        self.fragment = fragment
    }

    /// The URL written back: scheme, `//host` when there is one, path, query and fragment as written.
    public var description: String {
        var text = scheme + ":"
        if !host.isEmpty { text += "//" + host }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    private static func isAlpha(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Drops user info and port (an IPv6 literal keeps its brackets), then normalises.
    private static func hostOfAuthority(_ authority: Substring) -> String {
        var hostPort = authority
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            return String(hostPort[...close]).lowercased()
        }
        if let colon = hostPort.firstIndex(of: ":") { hostPort = hostPort[..<colon] }
        return normalizedHost(String(hostPort))
    }

    /// Hosts compare case-insensitively and `example.com.` is `example.com`.
    static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
