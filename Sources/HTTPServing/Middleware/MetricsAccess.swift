/// Who may read `/metrics`: its samples name every tenant's hosts, so not a stranger.
///
/// With a token (`serve --metrics-token-file`), only a request carrying it as `Authorization: Bearer …`
/// (what Prometheus sends with `authorization: credentials_file:`), from anywhere; without one, only a
/// client connecting from a loopback address (a scraper on the same machine). A reverse proxy on the same
/// machine connects from loopback too, so it must not pass `/metrics` (the shipped nginx configuration
/// does not): a token is what a fleet should use.
public struct MetricsAccess: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.head] }

    /// The bearer token a scraper must send; nil: loopback clients only.
    let token: [UInt8]?

    public init(token: String?) { self.token = token.map { Array($0.utf8) } }

    public func head(_ request: HTTPRequest) -> HTTPResponse? {
        if let token {
            let sent = BearerCredentials.token(fromAuthorization: request.header("Authorization"))
            guard let sent, Self.equal(Array(sent.utf8), token) else {
                return .text(
                    401, "metrics: send the metrics token as Authorization: Bearer (serve --metrics-token-file)\n",
                    headers: [("WWW-Authenticate", "Bearer realm=\"metrics\"")])
            }
            return nil
        }
        guard Self.isLoopback(request.clientAddress) else {
            return .text(
                403, "metrics: only loopback clients may read /metrics unless serve --metrics-token-file is set\n")
        }
        return nil
    }

    /// Whether a numeric client address is a loopback one (`127.0.0.0/8`, `::1`, IPv4-mapped `127.…`).
    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// Compares in time independent of where the bytes differ (the token is a secret).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
