/// A failure that is not an application error of the registry: the request did not reach the server, the
/// server did not answer in time, or its answer was not a JSON-RPC response the client understands.
///
/// Application errors (a missing app, a bad field, a stale etag) are `RegistryError`s with a gRPC status;
/// this type covers everything around them, so a caller can tell "the registry said no" from "the
/// registry could not be asked" (the CLI exits 3 for the latter).
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not be reached: connection refused, host not found, network down, connection lost.
    /// `reason` is a short human sentence without URLs or tokens.
    case connectionFailed(reason: String)
    /// No complete answer within the client's timeout.
    case timedOut
    /// A JSON-RPC protocol error (-32700 parse error, -32600 invalid request, -32601 method not found,
    /// -32602 invalid params, -32603 internal error, or another code in -32768...-32000).
    case protocolError(code: Int, message: String)
    /// The server answered with an HTTP status and no JSON-RPC body (a proxy's 502, a 404 for a wrong
    /// server URL).
    case httpStatus(Int)
    /// The answer was not a JSON-RPC response, or its result did not have the expected shape.
    case invalidResponse(reason: String)
    /// The params could not be encoded as JSON.
    case invalidRequest(reason: String)

    /// True when the registry could not be asked at all (refused, unreachable, timed out): worth retrying
    /// later, and what the CLI reports with exit code 3.
    public var isConnectionProblem: Bool {
        switch self {
        case .connectionFailed, .timedOut: true
        case .protocolError, .httpStatus, .invalidResponse, .invalidRequest: false
        }
    }

    public var description: String {
        switch self {
        case .connectionFailed(let reason): "cannot reach the registry: \(reason)"
        case .timedOut: "the registry did not answer in time"
        case .protocolError(let code, let message): "JSON-RPC error \(code): \(message)"
        case .httpStatus(let status): "the registry answered HTTP \(status) without a JSON-RPC response"
        case .invalidResponse(let reason): "unexpected answer from the registry: \(reason)"
        case .invalidRequest(let reason): "cannot encode the request: \(reason)"
        }
    }
}
