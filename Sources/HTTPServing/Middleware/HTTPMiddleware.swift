/// A concern every request (or every request of a route) passes through: the request guard, the request
/// log, metrics, deadlines, credentials.
///
/// libmicrohttpd calls back at three moments of a request, and a middleware may act at each:
/// - `head`: the method, path and headers have arrived, before any body: answer now to refuse it;
/// - `respond`: the request is complete: wrap the rest of the chain (`next`) and the responder;
/// - `finished`: the answer was sent or the connection closed: count it, log it.
///
/// Every hook has a default that does nothing, so a middleware implements only the moments it needs.
public protocol HTTPMiddleware: Sendable {
    /// A response refuses the request before its body is read; nil lets it go on.
    func head(_ request: HTTPRequest) -> HTTPResponse?
    /// Wraps the rest of the chain; call `next(request)` to go on.
    func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer
    /// The exchange is over: `request.status` is what was sent.
    func finished(_ request: HTTPRequest)
}

extension HTTPMiddleware {
    public func head(_ request: HTTPRequest) -> HTTPResponse? { nil }
    public func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer { next(request) }
    public func finished(_ request: HTTPRequest) {}
}

/// Runs `chain[index...]` around `responder`.
func runChain(
    _ chain: [any HTTPMiddleware], from index: Int, _ request: HTTPRequest, responder: HTTPResponder
) -> HTTPAnswer {
    guard index < chain.count else { return responder(request) }
    return chain[index].respond(request) { runChain(chain, from: index + 1, $0, responder: responder) }
}
