/// Reads the caller's deadline, `X-Request-Timeout-Ms` (0 to one day), into `request.context.deadline`: every wait
/// the request causes ends by it. A malformed value is not refused here: the route answers it in its own
/// protocol (a JSON-RPC error naming the header).
public struct DeadlineMiddleware: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.respond] }

    /// The header read.
    public static let header = "X-Request-Timeout-Ms"
    /// The longest deadline accepted: one day.
    public static let maxTimeoutMs = 86_400_000

    public init() {}

    public func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        // Nothing stored without the header: the default is "no deadline", and most requests send none.
        if let value = request.header(Self.header) { request.context.deadline = Self.parse(value) }
        return next(request)
    }

    /// The deadline a header value gives: nil without one.
    public static func parse(_ value: String?) -> Result<ContinuousClock.Instant?, HeaderRefusal> {
        guard let value else { return .success(nil) }
        let text = value.trimmingSpaces
        if !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int(text),
            ms <= maxTimeoutMs
        {
            return .success(ContinuousClock.now.advanced(by: .milliseconds(ms)))
        }
        return .failure(
            HeaderRefusal(
                header: header, description: "must be a whole number of milliseconds between 0 and \(maxTimeoutMs)"))
    }
}

/// The caller's deadline, as `DeadlineMiddleware` read it.
public enum DeadlineKey: RequestContextKey {
    public static var defaultValue: Result<ContinuousClock.Instant?, HeaderRefusal> { .success(nil) }
}

extension RequestContext {
    /// The caller's deadline (`DeadlineMiddleware`): nil without one; a refusal names the header and the rule.
    public var deadline: Result<ContinuousClock.Instant?, HeaderRefusal> {
        get { self[DeadlineKey.self] }
        set { self[DeadlineKey.self] = newValue }
    }
}
