/// A concern every request (or every request of a route) passes through: the request guard, the request
/// log, metrics, deadlines, credentials.
///
/// libmicrohttpd calls back at three moments of a request, and a middleware may act at each:
/// - `head`: the method, path and headers have arrived, before any body: answer now to refuse it;
/// - `respond`: the request is complete: wrap the rest of the chain (`next`) and the responder;
/// - `finished`: the answer was sent or the connection closed: count it, log it.
///
/// Every hook has a default that does nothing, so a middleware implements only the moments it needs, and
/// says which in `hooks`: the server calls only those, so a GET passes no chain of empty wrappers.
public protocol HTTPMiddleware: Sendable {
    /// The hooks this middleware implements.
    var hooks: HTTPMiddlewareHooks { get }
    /// A response refuses the request before its body is read; nil lets it go on.
    func head(_ request: HTTPRequest) -> HTTPResponse?
    /// Wraps the rest of the chain; call `next(request)` to go on.
    func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer
    /// The exchange is over: `request.status` is what was sent.
    func finished(_ request: HTTPRequest)
}

/// The moments of a request a middleware acts at.
public struct HTTPMiddlewareHooks: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let head = HTTPMiddlewareHooks(rawValue: 1)
    public static let respond = HTTPMiddlewareHooks(rawValue: 2)
    public static let finished = HTTPMiddlewareHooks(rawValue: 4)
    public static let all: HTTPMiddlewareHooks = [.head, .respond, .finished]
}

extension HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { .all }
    public func head(_ request: HTTPRequest) -> HTTPResponse? { nil }
    public func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer { next(request) }
    public func finished(_ request: HTTPRequest) {}
}
