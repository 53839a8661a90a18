/// Whole-resource checks, built from the value checks in `ModelValidation`.
extension ModelValidation {
    /// Validates an app; `field` is its path in the request (`app`).
    public static func app(_ app: App, field: String = "app") throws(RegistryError) {
        try id(app.id, field: "\(field).id")
        if let ios = app.ios {
            for (i, appID) in ios.appIds.enumerated() { try self.appID(appID, field: "\(field).ios.appIds[\(i)]") }
            for (i, appID) in (ios.appClips ?? []).enumerated() {
                try self.appID(appID, field: "\(field).ios.appClips[\(i)]")
            }
        }
        if let android = app.android {
            try packageName(android.packageName, field: "\(field).android.packageName")
            for (i, print) in android.sha256CertFingerprints.enumerated() {
                try fingerprint(print, field: "\(field).android.sha256CertFingerprints[\(i)]")
            }
        }
        for (i, name) in app.schemes.enumerated() { try scheme(name, field: "\(field).schemes[\(i)]") }
        try fallback(app.fallback, field: "\(field).fallback")
        let hosts = app.hosts ?? []
        if hosts.count > 100 { throw .invalidArgument(field: "\(field).hosts", "must list at most 100 patterns") }
        for (i, pattern) in hosts.enumerated() {
            try HostPattern.validate(pattern, field: "\(field).hosts[\(i)]")
            if hosts[..<i].contains(pattern) {
                throw .invalidArgument(field: "\(field).hosts[\(i)]", "lists \(pattern) twice")
            }
        }
    }

    /// Validates a fallback policy: the marker must be a plain query item with a non-empty value, since
    /// the AASA exclusion `{"name": "?*"}` only recognises non-empty values.
    public static func fallback(_ policy: FallbackPolicy, field: String) throws(RegistryError) {
        func plain(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.count <= 64
                && text.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || "-._~".unicodeScalars.contains($0)
                }
        }
        guard plain(policy.queryItem) else {
            throw .invalidArgument(field: "\(field).queryItem", "must be 1 to 64 letters, digits, -, ., _ or ~")
        }
        guard plain(policy.value) else {
            throw .invalidArgument(field: "\(field).value", "must be 1 to 64 letters, digits, -, ., _ or ~")
        }
    }

    /// Validates a domain: its host, app IDs, alias target and substitution variables.
    public static func domain(_ domain: Domain, field: String = "domain") throws(RegistryError) {
        try host(domain.host, field: "\(field).host")
        for (i, app) in domain.apps.enumerated() {
            try id(app, field: "\(field).apps[\(i)]")
            if domain.apps[..<i].contains(app) {
                throw .invalidArgument(field: "\(field).apps[\(i)]", "lists \(app) twice")
            }
        }
        if let target = domain.aliasOf {
            try host(target, field: "\(field).aliasOf")
            if target == domain.host {
                throw .invalidArgument(field: "\(field).aliasOf", "cannot name the domain itself")
            }
        }
        if domain.longLinkPreviews == true, domain.links != true {
            throw .invalidArgument(field: "\(field).longLinkPreviews", "applies to a link domain only (links: true)")
        }
        for (name, values) in (domain.substitutionVariables ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = "\(field).substitutionVariables.\(name)"
            try patternText("$(\(name))", field: path)
            if values.isEmpty { throw .invalidArgument(field: path, "must list at least one value") }
            for (i, value) in values.enumerated() {
                try patternText(value, field: "\(path)[\(i)]")
                // Bounds how far matching reads from each position of a URL (ModelValidation+MatchingBounds).
                if value.unicodeScalars.count > maxSubstitutionValueLength {
                    throw .invalidArgument(
                        field: "\(path)[\(i)]",
                        "is longer than \(maxSubstitutionValueLength) characters (a substitution value is a word or a slug)"
                    )
                }
            }
        }
    }

    /// A path pattern is matched against URL paths, which always start with `/` on iOS: `no-slash` could
    /// never match and is surely a typo. A leading wildcard (`*`, `*/terms/*`, `?`) or variable is kept: real
    /// association files use them.
    static func pathStart(_ path: String, field: String) throws(RegistryError) {
        guard let first = path.utf8.first else { return }
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "*") || first == UInt8(ascii: "?")
            || path.hasPrefix("$(")
        {
            return
        }
        throw .invalidArgument(
            field: field, "must start with / (iOS paths start with /), or with a wildcard: /\(path.prefix(40))")
    }

    /// Validates a route: ID, pattern, version ranges, switched-off versions, domains and web fallback.
    public static func route(_ route: Route, field: String = "route") throws(RegistryError) {
        try id(route.id, field: "\(field).id")
        let pattern = route.pattern
        if let scheme = pattern.scheme { try self.scheme(scheme, field: "\(field).pattern.scheme") }
        if let path = pattern.path {
            try patternText(path, field: "\(field).pattern.path")
            try pathStart(path, field: "\(field).pattern.path")
        }
        if let fragment = pattern.fragment { try patternText(fragment, field: "\(field).pattern.fragment") }
        switch pattern.query {
        case nil: break
        case .string(let text)?: try patternText(text, field: "\(field).pattern.query")
        case .items(let items)?:
            for (name, value) in items.sorted(by: { $0.key < $1.key }) {
                if name.isEmpty { throw .invalidArgument(field: "\(field).pattern.query", "has an empty item name") }
                try patternText(value, field: "\(field).pattern.query.\(name)")
            }
        }
        if route.action == .exclude && !route.platforms.isEmpty {
            throw .invalidArgument(field: "\(field).platforms", "an exclude route is never handled by a version")
        }
        for (platform, range) in route.platforms.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where range.isEmpty {
            throw .invalidArgument(field: "\(field).platforms.\(platform.rawValue).until", "must be after since")
        }
        for (i, host) in route.domains.enumerated() { try self.host(host, field: "\(field).domains[\(i)]") }
        if pattern.scheme != nil && !route.domains.isEmpty {
            throw .invalidArgument(field: "\(field).domains", "a custom-scheme route does not apply to domains")
        }
        if let fallback = route.webFallback {
            guard pattern.scheme != nil else {
                throw .invalidArgument(field: "\(field).webFallback", "only custom-scheme routes have a web fallback")
            }
            guard fallback.hasPrefix("https://") || fallback.hasPrefix("http://"), fallback.unicodeScalars.count <= 2048
            else {
                throw .invalidArgument(field: "\(field).webFallback", "must be an http(s) URL")
            }
        }
    }
}
