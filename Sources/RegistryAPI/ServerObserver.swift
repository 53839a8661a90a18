import HTTPServing
import JSONRPC

/// The engine's reports into the server's metrics (calls by method and status) and request log (each
/// unexpected failure, keyed by request id).
struct ServerObserver: JSONRPCObserver {
    let metrics: ServerMetrics?
    let log: RequestLog

    func callFinished(method: String, status: String) { metrics?.callFinished(method: method, status: status) }

    /// Once per burst: the address is in memory and in this log line only, never in the database.
    func signInsLimited(_ lockout: SignInLimiter.Lockout) {
        log.line { line in
            line.key("ts", first: true)
            line.timestamp()
            line.key("level")
            line.string("warning")
            line.key("event")
            line.string("sign-in limit")
            line.key("client")
            line.string(lockout.address)
            line.key("failures")
            line.string(String(lockout.failures))
            line.key("retryAfterSeconds")
            line.string(String(lockout.retryAfterSeconds))
        }
    }

    func internalFailure(requestID: String, method: String, error: any Error) {
        log.line { line in
            line.key("ts", first: true)
            line.timestamp()
            line.key("level")
            line.string("error")
            line.key("requestId")
            line.string(requestID)
            line.key("rpc")
            line.string(method)
            line.key("error")
            line.string(String(describing: error))
        }
    }
}
