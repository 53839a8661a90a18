/// The open-redirect guard: where a link may send a person.
///
/// Anything that sends a person somewhere (a short link's target, a platform fallback, a desktop page) can never
/// send them off the app's own domains, its store pages, or hosts an admin allowed. OWASP's Unvalidated Redirects
/// cheat sheet asks for an allowlist checked after parsing the URL as the browser will, never by string prefix.
///
/// Browsers parse leniently (the WHATWG URL Standard): they drop tabs and line breaks anywhere, read `\` as `/`,
/// add the slashes missing after `https:`, take everything before an `@` as user info, decode `%2E` and map
/// `。` to `.` in hosts, and read `0x7f.1` as an IPv4 address. Rather than reproduce that leniency and hope every
/// other reader on the way (a chat app's preview fetcher, an SDK, a proxy) agrees, `check` accepts only a strict
/// subset on which the WHATWG and RFC 3986 readings give the same scheme, host and port. Whatever the lenient
/// rules would rewrite is refused, never normalised, so the text returned is exactly the text that was checked.
/// A destination is accepted when:
///
/// - it is at most 4,096 bytes of printable ASCII from RFC 3986's URI characters (no space, tab, CR, LF or other
///   control, no backslash, none of `"`, `<`, `>`, `^`, backquote, `{`, `|`, `}`), and every `%` starts a `%XX`
///   escape; non-ASCII text must be percent-encoded in the path, and cannot appear in the host at all;
/// - its scheme is `https`, in any letter case (browsers lower-case it); `http`, custom schemes and every other
///   scheme (`javascript:`, `data:`, `vbscript:`, `file:`, `intent:`, `blob:`) are refused;
/// - exactly `//` follows `https:` (not `https:host`, `https:/host`, `https:///host`) and no `@` comes before the
///   host ends (user info);
/// - its host is lower-case ASCII letters, digits and `-` in dot-separated labels of 1 to 63 bytes, with no
///   trailing dot, no `%` escape, no `xn--` (punycode) label, and not an IP address;
/// - it has no port, or exactly `:443`;
/// - its host is exactly one of `appHosts`, `allowedHosts` or, when stores are allowed, `storeHosts`: a subdomain
///   of a listed host is not included, nor is its parent.
///
/// Why some of these: the host is compared with the lists byte for byte and never lower-cased here, because
/// Unicode lower-casing maps `K` (Kelvin sign) to `k` and such; a trailing dot names a different origin to
/// browsers (cookies, certificates); and no host we route to is internationalised, so an `xn--` label is far more
/// likely a look-alike of one of ours (`m.xn--bdoo-53d.com` is `m.bаdoo.com` with a Cyrillic `а`) than a partner.
/// Percent-encoded bytes after the host (`%0A` in a query included) stay as written: encoded, they are inert in a
/// `Location` header and in a page, and decoding them is the destination's business.
public struct LinkDestinations: Sendable, Hashable {
    /// The store hosts a link may send a person to when `allowStores` is true: the App Store and Google Play.
    public static let storeHosts: Set<String> = ["apps.apple.com", "itunes.apple.com", "play.google.com"]

    /// The longest destination accepted, in UTF-8 bytes: far above a real one, small enough for a header and a row.
    public static let maxLength = 4096

    /// The app's own domains, exactly as written (lower-case hosts; a subdomain is not included unless listed).
    public var appHosts: Set<String>
    /// Hosts an admin allowed explicitly, exactly as written.
    public var allowedHosts: Set<String>

    /// appHosts: the app's own domains (lower-case hosts; a subdomain is NOT included unless listed).
    /// allowedHosts: hosts an admin allowed explicitly.
    ///
    /// Hosts are compared byte for byte with the host of a URL that passed every other rule, so an entry that is not
    /// a lower-case host name without a trailing dot (validate entries with `ModelValidation.host`) never matches.
    public init(appHosts: Set<String>, allowedHosts: Set<String> = []) {
        self.appHosts = appHosts
        self.allowedHosts = allowedHosts
    }

    /// Whether `url` may be a destination; returns the URL as it will be sent (unchanged text when accepted),
    /// throws RegistryError INVALID_ARGUMENT naming `field` (e.g. "link.target", "link.ios.fallbackUrl") with a
    /// clear reason.
    ///
    /// Only absolute `https` URLs are accepted, under the rules in the type's documentation; `allowStores: false`
    /// refuses the store hosts too (for a destination that must be a web page, such as a desktop fallback).
    public func check(_ url: String, field: String, allowStores: Bool = true) throws(RegistryError) -> String {
        let host: String
        switch Self.parse(url) {
        case .host(let parsed): host = parsed
        case .refused(let reason): throw .invalidArgument(field: field, reason)
        }
        // The host passed the syntax rules, so it is safe to echo: lower-case letters, digits, - and dots only.
        if appHosts.contains(host) || allowedHosts.contains(host) { return url }
        if allowStores {
            if Self.storeHosts.contains(host) { return url }
            throw .invalidArgument(
                field: field, "host \(host) is not one of the app's domains, a store or a host an admin allowed")
        }
        throw .invalidArgument(field: field, "host \(host) is not one of the app's domains or a host an admin allowed")
    }

    /// The parsed host of an accepted URL.
    ///
    /// Nil when `check` would refuse the URL whatever the lists hold; otherwise the host `check` compares.
    public static func host(of url: String) -> String? {
        guard case .host(let host) = parse(url) else { return nil }
        return host
    }

    /// The outcome of the syntax rules: the host, or why the URL is refused (a sentence that never echoes input
    /// that failed a rule, since it goes to clients and logs).
    private enum Parsed {
        case host(String)
        case refused(String)
    }

    /// Applies every rule but the allowlist, in the order a reader would want to hear of them.
    private static func parse(_ url: String) -> Parsed {
        let bytes = Array(url.utf8)
        guard !bytes.isEmpty else { return .refused("must be an https URL, not empty") }
        guard bytes.count <= maxLength else { return .refused("must be at most \(maxLength) bytes long") }
        if let reason = characterRefusal(bytes) { return .refused(reason) }

        // The scheme: letters, digits, +, - and . up to the first colon, starting with a letter.
        guard let colon = bytes.firstIndex(of: ascii(":")), colon > 0, isLetter(bytes[0]),
            bytes[..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
        else {
            return .refused("must be an absolute https:// URL, not a path, a bare host or a scheme-relative //host")
        }
        guard bytes[..<colon].map(lowered).elementsEqual("https".utf8) else {
            let scheme = String(decoding: bytes[..<colon].map(lowered), as: UTF8.self)
            return .refused("must use https, not \(scheme)")
        }

        // Exactly two slashes: browsers also accept https:host, https:/host and https:///host, other readers do not.
        let slashes = bytes[(colon + 1)...].prefix(while: { $0 == ascii("/") }).count
        guard slashes == 2 else { return .refused("must start with exactly https:// before the host") }

        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex(where: { "/?#".utf8.contains($0) }) ?? bytes.count
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.contains(ascii("@")) else {
            return .refused("must not hold user info (an @ before the host ends): browsers go to the host after the @")
        }
        var hostBytes = authority
        var port: ArraySlice<UInt8>?
        if let portColon = authority.firstIndex(of: ascii(":")) {
            hostBytes = authority[..<portColon]
            port = authority[(portColon + 1)...]
        }
        if let reason = hostRefusal(hostBytes) { return .refused(reason) }
        if let port, !port.elementsEqual("443".utf8) { return .refused("must not name a port other than 443") }
        return .host(String(decoding: hostBytes, as: UTF8.self))
    }

    /// Why the characters of a whole URL are refused, or nil: controls and spaces (browsers drop tabs and line
    /// breaks, so `ht\ttps:` is `https:` to them), non-ASCII, backslashes, characters RFC 3986 never allows
    /// unencoded, and `%` not followed by two hex digits.
    private static func characterRefusal(_ bytes: [UInt8]) -> String? {
        for (i, byte) in bytes.enumerated() {
            if byte <= 0x20 || byte == 0x7F {
                return "must not contain spaces, tabs, line breaks or other control characters"
            }
            if byte >= 0x80 {
                return "must be ASCII: percent-encode other characters in the path; a host cannot hold them"
            }
            if byte == ascii("\\") { return "must not contain a backslash (browsers read \\ as /); write %5C" }
            if byte == ascii("%") {
                guard i + 2 < bytes.count, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else {
                    return "must write % only as the start of a %XX escape"
                }
            }
            // Printable ASCII outside RFC 3986 (", <, >, ^, backquote, {, |, }): echoing one is safe.
            if !isURICharacter(byte) {
                return "must not contain \(Character(Unicode.Scalar(byte))) unencoded; percent-encode it"
            }
        }
        return nil
    }

    /// Why a host is refused, or nil when it is lower-case LDH labels, not an IP address, and not punycode.
    private static func hostRefusal(_ host: ArraySlice<UInt8>) -> String? {
        guard !host.isEmpty else { return "must name a host after https://" }
        if host.contains(ascii("%")) { return "must not hold percent-encoded characters in the host" }
        if host.contains(where: isUpper) { return "must write the host in lower case" }
        if host.last == ascii(".") { return "must not end the host with a dot" }
        guard host.count <= 253 else { return "must have a host of at most 253 bytes" }
        let labels = host.split(separator: ascii("."), omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else { return "must not have an empty label (two dots) in the host" }
            guard label.allSatisfy({ isLetter($0) || isDigit($0) || $0 == ascii("-") }) else {
                return "must have a host of only lower-case letters, digits, - and ."
            }
            guard label.count <= 63 else { return "must have host labels of at most 63 bytes" }
            guard label.first != ascii("-"), label.last != ascii("-") else {
                return "must not start or end a host label with -"
            }
            if label.starts(with: "xn--".utf8) {
                return "must not use an internationalised (xn--) host: none of ours is one, a look-alike may be"
            }
        }
        // WHATWG reads a host whose last label is a number (decimal, or 0x hex) as IPv4: `0x7f.1` is 127.0.0.1.
        if let last = labels.last, last.allSatisfy(isDigit) || last.starts(with: "0x".utf8) {
            if last.allSatisfy(isDigit) || last.dropFirst(2).allSatisfy(isHexDigit) {
                return "must name a host, not an IP address"
            }
        }
        return nil
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    private static func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }

    private static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || (0x61...0x7A).contains(byte) }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte + 0x20 : byte }

    /// RFC 3986's unreserved, reserved and `%` characters.
    private static func isURICharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
    }
}
