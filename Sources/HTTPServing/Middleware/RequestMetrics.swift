import Dispatch

/// Counts every request into `ServerMetrics`: in flight from its head, then its status and duration under
/// its route's label once it is over.
public struct RequestMetrics: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.head, .finished] }

    public let metrics: ServerMetrics

    public init(metrics: ServerMetrics) { self.metrics = metrics }

    public func head(_ request: HTTPRequest) -> HTTPResponse? {
        metrics.requestStarted()
        return nil
    }

    public func finished(_ request: HTTPRequest) {
        let nanos = request.durationNanos
        metrics.requestFinished(handler: request.handlerLabel, code: request.status, seconds: Double(nanos) / 1e9)
    }
}
