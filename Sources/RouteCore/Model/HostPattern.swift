/// The host patterns an admin for every app assigns an app (`App.hosts`): `rt.example.com` is that host,
/// `*.rt.example.com` every host below it at any depth (not `rt.example.com` itself).
///
/// They are the boundary between tenants for domains. Which hosts belong together (the registrable domain,
/// `badoo.com` for `m.badoo.com`) needs the public suffix list, which the registry does not carry; the
/// patterns say it instead, set by someone trusted with every app.
public enum HostPattern {
    /// Whether `host` (lower-case) is one `pattern` allows.
    public static func matches(_ pattern: String, host: String) -> Bool {
        guard let suffix = wildcardSuffix(pattern) else { return pattern == host }
        return host.hasSuffix("." + suffix)
    }

    /// Whether some host matches both patterns.
    public static func overlap(_ a: String, _ b: String) -> Bool {
        switch (wildcardSuffix(a), wildcardSuffix(b)) {
        case (nil, nil): a == b
        case (let x?, nil): b.hasSuffix("." + x)
        case (nil, let y?): a.hasSuffix("." + y)
        case (let x?, let y?): x == y || x.hasSuffix("." + y) || y.hasSuffix("." + x)
        }
    }

    /// Whether `host` is `other` or lies below it (`login.m.badoo.com` under `m.badoo.com`).
    public static func isAtOrUnder(_ host: String, _ other: String) -> Bool {
        host == other || host.hasSuffix("." + other)
    }

    /// Validates a pattern: a host name, or `*.` and a host name (a bare `*.com` is refused: a pattern must
    /// name at least two labels below its wildcard, so no one is handed a whole top-level domain).
    public static func validate(_ pattern: String, field: String) throws(RegistryError) {
        let host = wildcardSuffix(pattern) ?? pattern
        do {
            // A host's own limit applies to the whole pattern, `*.` included (as the OpenRPC document says).
            guard pattern.utf8.count <= 253 else { throw RegistryError.invalidArgument(field: field, "too long") }
            try ModelValidation.host(host, field: field)
        } catch {
            throw .invalidArgument(
                field: field, "must be a lower-case host name (rt.example.com) or *. and one (*.rt.example.com)")
        }
    }

    /// The host after `*.`, or nil for an exact pattern.
    static func wildcardSuffix(_ pattern: String) -> String? {
        pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : nil
    }
}
