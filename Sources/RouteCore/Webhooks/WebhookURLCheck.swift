/// Whether a webhook's receiver URL may be used: like a link's destinations, nothing that reaches inside the
/// server's own network. `https` only, no user info, no IP literal, not `localhost` or a single-label name; the
/// address a name resolves to is checked again when delivering (`HTTPFetcher.Request.publicAddressesOnly`).
/// Hosts an admin allowed (`serve --webhook-private-hosts`) skip these rules, `http` included: a receiver
/// inside the company's network.
public struct WebhookURLCheck: Sendable {
    /// Hosts allowed whatever they are (lower-case).
    public var allowedHosts: Set<String>

    public init(allowedHosts: Set<String> = []) { self.allowedHosts = allowedHosts }

    /// The URL as stored, or why not.
    public func check(_ url: String) -> Result<String, RegistryError> {
        let field = "webhook.url"
        guard url.count <= 2048, !url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
        else { return .failure(.invalidArgument(field: field, "is not a URL without spaces, at most 2048 characters")) }
        guard let parsed = LinkURL(url), !parsed.host.isEmpty else {
            return .failure(.invalidArgument(field: field, "is not an absolute URL"))
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        let host = parsed.host.lowercased()
        if allowedHosts.contains(host) {
            return scheme == "https" || scheme == "http"
                ? .success(url) : .failure(.invalidArgument(field: field, "must be an http or https URL"))
        }
        guard scheme == "https" else { return .failure(.invalidArgument(field: field, "must be an https URL")) }
        let authority = url.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { return .failure(.invalidArgument(field: field, "must not hold user info")) }
        if host == "localhost" || host.hasSuffix(".localhost") || !host.contains(".")
            || host.hasSuffix(".internal") || host.hasSuffix(".local")
        {
            return .failure(.invalidArgument(field: field, "\(host) is not a public host"))
        }
        if host.first == "[" || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            return .failure(.invalidArgument(field: field, "must name a host, not an IP address"))
        }
        return .success(url)
    }
}
