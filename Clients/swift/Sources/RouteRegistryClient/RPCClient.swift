import Foundation
import RouteMatching

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typed JSON-RPC 2.0 client for the registry. `call(_:_:)` takes any `RPCMethodSignature`: the read methods an
/// app needs have helpers here (`canOpenTable`, `check`), and a tool that also imports RouteCore calls every
/// method through the server's own descriptors (`API.*`), so a method's name and shapes are written down once.
///
/// ```swift
/// let client = RPCClient(server: URL(string: "https://registry.example.com")!)
/// let decision = try await client.check(app: "badoo", platform: .ios, version: try Version("5.11.0"),
///     url: "https://m.badoo.com/l/a/42")
/// ```
///
/// Every call is one `POST <server>/rpc`. Errors: `RegistryError` when the registry answers with an
/// application error (its gRPC `code` is kept even when this build does not know it, so a newer server
/// never breaks an older client), `ClientError` for everything else (unreachable, timed out, protocol
/// errors, unexpected answers). Task cancellation cancels the HTTP request.
public struct RPCClient: Sendable {
    /// The registry's base URL; requests go to `<server>/rpc`.
    public let server: URL
    /// The bearer token, needed for every method whose access is not `public`.
    public let token: String?
    /// The default per-call timeout in seconds, also sent as `X-Request-Timeout-Ms` so the server stops
    /// working on a request nobody waits for.
    public let timeout: TimeInterval
    /// The session requests go through.
    public let session: URLSession

    /// A client for the registry at `server`.
    public init(server: URL, token: String? = nil, session: URLSession = .shared, timeout: TimeInterval = 10) {
        self.server = server
        self.token = token
        self.session = session
        self.timeout = timeout
    }

    /// Calls `method` with `input` and decodes its result.
    ///
    /// - Parameter timeout: overrides the client's timeout for this call (e.g. `Associations.Watch`,
    ///   which long-polls for up to a minute).
    public func call<M: RPCMethodSignature>(
        _ method: M.Type, _ input: M.Input, timeout: TimeInterval? = nil
    ) async throws -> M.Output {
        let result = try await callRaw(
            method: M.name, paramsJSON: try RPCWire.encodeParams(input), timeout: timeout)
        return try RPCWire.decode(M.Output.self, method: M.name, from: result)
    }

    /// Calls `method` with a params object given as JSON bytes and returns the `result` member's bytes
    /// exactly as the server sent them (for tools that print the server's JSON unchanged).
    public func callRaw(method: String, paramsJSON: Data, timeout: TimeInterval? = nil) async throws -> Data {
        var request = try makeRequest(method: method, paramsJSON: paramsJSON, timeout: timeout)
        let deadline = Date().addingTimeInterval(request.timeoutInterval)
        var attempt = 0
        while true {
            attempt += 1
            let body: Data
            let response: URLResponse
            do {
                (body, response) = try await session.data(for: request)
            } catch {
                if Task.isCancelled { throw CancellationError() }
                if attempt == 1, Self.mayRepeat(after: error, method: method, paramsJSON: paramsJSON),
                    let again = Self.repeated(request, before: deadline)
                {
                    request = again
                    continue
                }
                throw Self.transportError(error)
            }
            return try RPCWire.result(body: body, httpStatus: (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
    }

    /// `request` again within what is left of the call's deadline; nil when nothing useful is left.
    static func repeated(_ request: URLRequest, before deadline: Date) -> URLRequest? {
        let left = deadline.timeIntervalSinceNow
        guard left > 0.05 else { return nil }
        var again = request
        again.timeoutInterval = left
        again.setValue(String(Int((left * 1000).rounded())), forHTTPHeaderField: "X-Request-Timeout-Ms")
        return again
    }

    /// Whether a call that got no answer at all may be sent once more, at once: its connection closed under it
    /// (a kept-alive connection a proxy's reload or a server's idle timeout closed as the request went out),
    /// and repeating it cannot apply anything twice: a read, or a write carrying its idempotency `requestId`.
    /// Browsers and HTTP libraries repeat such requests the same way; any answer, even an error, is final.
    static func mayRepeat(after error: any Error, method: String, paramsJSON: Data) -> Bool {
        guard let code = (error as? URLError)?.code, code == .networkConnectionLost || code == .badServerResponse
        else { return false }
        if ReadMethods.names.contains(method) { return true }
        let params = try? JSONSerialization.jsonObject(with: paramsJSON) as? [String: Any]
        return params?["requestId"] is String
    }

    /// The HTTP request for one call.
    func makeRequest(method: String, paramsJSON: Data, timeout: TimeInterval?) throws -> URLRequest {
        let seconds = timeout ?? self.timeout
        var request = URLRequest(url: server.appendingPathComponent("rpc"))
        request.httpMethod = "POST"
        request.httpBody = try RPCWire.requestBody(method: method, paramsJSON: paramsJSON)
        request.timeoutInterval = seconds
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(String(Int((seconds * 1000).rounded())), forHTTPHeaderField: "X-Request-Timeout-Ms")
        if let token, !token.isEmpty {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    /// A transport failure as a `ClientError`, with a reason that names no URL or token.
    static func transportError(_ error: any Error) -> ClientError {
        guard let urlError = error as? URLError else {
            return .connectionFailed(reason: "network error")
        }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .connectionFailed(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .connectionFailed(reason: "host not found")
        case .networkConnectionLost: return .connectionFailed(reason: "connection lost")
        case .notConnectedToInternet: return .connectionFailed(reason: "no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .connectionFailed(reason: "TLS connection failed")
        case .badServerResponse: return .invalidResponse(reason: "malformed HTTP response")
        case .unsupportedURL, .badURL: return .connectionFailed(reason: "unsupported server URL")
        default: return .connectionFailed(reason: "network error \(urlError.code.rawValue)")
        }
    }
}
