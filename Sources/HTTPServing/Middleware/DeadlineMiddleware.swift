/// Reads the caller's deadline, `X-Request-Timeout-Ms` (0 to one day), into `request.context.deadline`: every
/// wait the request causes ends by it. A malformed value is not refused here: the route answers it in its own
/// protocol (a JSON-RPC error naming the header).
public struct DeadlineMiddleware: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.respond] }

    /// The header read.
    public static let header = "X-Request-Timeout-Ms"
    /// The longest deadline accepted: one day.
    public static let maxTimeoutMs = 86_400_000

    public init() {}

    public func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        // Nothing stored without the header: the default is "no deadline".
        if let value = request.header(Self.header) { request.context[CallerDeadlineKey.self] = Self.read(value) }
        return next(request)
    }

    /// What a present header says, small enough for the existential the context keeps it in (no box): the
    /// refusal's text is the same for every malformed value, so it is made only when read.
    static func read(_ value: String) -> CallerDeadline {
        let text = value.trimmingSpaces
        if !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int(text),
            ms <= maxTimeoutMs
        {
            return .at(ContinuousClock.now.advanced(by: .milliseconds(ms)))
        }
        return .malformed
    }

    /// Why a malformed value is refused.
    @usableFromInline static var refusal: HeaderRefusal {
        HeaderRefusal(
            header: header, description: "must be a whole number of milliseconds between 0 and \(maxTimeoutMs)")
    }
}

/// A present `X-Request-Timeout-Ms`, as `DeadlineMiddleware` read it.
@usableFromInline
enum CallerDeadline: Sendable {
    case at(ContinuousClock.Instant)
    case malformed

    /// What `request.context.deadline` reads: nil without the header.
    @inlinable
    static func result(_ deadline: CallerDeadline?) -> Result<ContinuousClock.Instant?, HeaderRefusal> {
        switch deadline {
        case nil: .success(nil)
        case .at(let instant): .success(instant)
        case .malformed: .failure(DeadlineMiddleware.refusal)
        }
    }
}

/// The caller's deadline, as `DeadlineMiddleware` read it: nil without the header.
@usableFromInline
enum CallerDeadlineKey: RequestContextKey {
    @inlinable static var defaultValue: CallerDeadline? { nil }
}

extension RequestContext {
    /// The caller's deadline (`DeadlineMiddleware`): nil without one; a refusal names the header and the rule.
    @inlinable
    public var deadline: Result<ContinuousClock.Instant?, HeaderRefusal> {
        CallerDeadline.result(self[CallerDeadlineKey.self])
    }
}
