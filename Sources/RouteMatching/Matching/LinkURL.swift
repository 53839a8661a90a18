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
    /// Splits the UTF-8 bytes on the ASCII delimiters (always scalar boundaries), not on `Character`s, and
    /// reads them from the string's own buffer rather than through `String.UTF8View` indices: it runs for
    /// every `CanOpen.Check`, and both grapheme breaking and index arithmetic on the view cost more than the
    /// split itself. A delimiter followed by a combining mark therefore still delimits, as it does for iOS.
    public init?(_ string: String) {
        var text = string
        guard let parts = text.withUTF8(Self.parts) else { return nil }
        (scheme, host, path, query, fragment) = parts
    }

    /// The scheme, host, path, query and fragment of a whole URL's bytes; nil when it has no valid scheme.
    private static func parts(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (scheme: String, host: String, path: String, query: String?, fragment: String?)? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(bytes[0]),
            bytes[..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        var start = colon + 1
        var end = bytes.count
        var fragment: String?
        if let hash = bytes[start..<end].firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: bytes[(hash + 1)..<end], as: UTF8.self)
            end = hash
        }
        var query: String?
        if let mark = bytes[start..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = String(decoding: bytes[(mark + 1)..<end], as: UTF8.self)
            end = mark
        }
        var host = ""
        if end - start >= 2 && bytes[start] == UInt8(ascii: "/") && bytes[start + 1] == UInt8(ascii: "/") {
            let authorityEnd = bytes[(start + 2)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            host = hostOfAuthority(bytes[(start + 2)..<authorityEnd])
            start = authorityEnd
        }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        return (
            bytes[..<colon].contains(where: isUpper) ? scheme.lowercased() : scheme, host,
            String(decoding: bytes[start..<end], as: UTF8.self), query, fragment
        )
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
    private static func hostOfAuthority(_ authority: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var hostPort = authority
        if let at = hostPort.lastIndex(of: UInt8(ascii: "@")) { hostPort = hostPort[(at + 1)...] }
        if hostPort.first == UInt8(ascii: "["), let close = hostPort.firstIndex(of: UInt8(ascii: "]")) {
            return String(decoding: hostPort[...close], as: UTF8.self).lowercased()
        }
        if let colon = hostPort.firstIndex(of: UInt8(ascii: ":")) { hostPort = hostPort[..<colon] }
        return normalizedHost(String(decoding: hostPort, as: UTF8.self))
    }

    /// Hosts compare case-insensitively and `example.com.` is `example.com`.
    package static func normalizedHost(_ host: String) -> String {
        var host = host.utf8.contains(where: { $0 >= 0x80 || isUpper($0) }) ? host.lowercased() : host
        while host.utf8.last == UInt8(ascii: ".") { host.removeLast() }
        return host
    }
}
