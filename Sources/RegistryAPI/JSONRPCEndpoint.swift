import Foundation
import HTTPServing
import JSONRPC

/// JSON-RPC over HTTP: the responder of `POST /rpc`. It checks the media type, hands the body and what the
/// middleware read from the headers (deadline, bearer token) to the engine, and answers now or, for a
/// request the engine runs elsewhere (a long poll, a call that may wait on the database), later, with the
/// connection suspended.
public struct JSONRPCEndpoint: Sendable {
    public let dispatcher: JSONRPCDispatcher

    public init(dispatcher: JSONRPCDispatcher) { self.dispatcher = dispatcher }

    /// The middleware the route needs: the caller's deadline and bearer token, read from the headers.
    public static let middleware: [any HTTPMiddleware] = [DeadlineMiddleware(), BearerCredentials()]

    public func respond(_ request: HTTPRequest) -> HTTPAnswer {
        guard request.header("Content-Type", satisfies: Self.isJSON) else {
            return .respond(.text(415, "Content-Type must be application/json\n"))
        }
        let requestID = request.requestID
        let transport = RPCTransport(
            requestID: requestID, bearerToken: request.context.bearerToken,
            deadline: request.context.deadline.mapError { .invalidArgument(field: $0.header, $0.description) },
            host: request.host, userAgent: request.header("User-Agent"), remoteAddress: request.clientAddress)
        // The deferral starts only for a request that does not answer now (a long poll, a call run on the
        // offload queue): it costs a closure and the request's lock.
        let dispatched = dispatcher.dispatch(body: request.takeBody(), transport: transport) {
            let deliver = request.deferral()
            return { reply in deliver(Self.response(reply, requestID: requestID)) }
        }
        if !dispatched.methods.isEmpty { request.context.loggedCalls = dispatched.methods }
        switch dispatched.outcome {
        case .reply(let reply): return .respond(Self.response(reply, requestID: requestID))
        case .pending(let cancel): return .later(cancel: cancel)
        }
    }

    static func response(_ reply: RPCReply, requestID: String) -> HTTPResponse {
        switch reply {
        case .json(let bytes):
            HTTPResponse(
                status: 200, body: bytes, contentType: "application/json", headers: [("X-Request-Id", requestID)])
        case .noContent:
            HTTPResponse(status: 204, headers: [("X-Request-Id", requestID)])
        case .limited(let bytes, let seconds):
            HTTPResponse(
                status: 429, body: bytes, contentType: "application/json",
                headers: [("X-Request-Id", requestID), ("Retry-After", String(seconds))])
        }
    }

    /// `application/json`, with any parameters (`; charset=utf-8`), case-insensitive.
    static func isJSON(_ contentType: UnsafeBufferPointer<UInt8>) -> Bool {
        if contentType.elementsEqual("application/json".utf8) { return true }
        return isJSON(String(decoding: contentType, as: UTF8.self))
    }

    /// `application/json`, with any parameters (`; charset=utf-8`), case-insensitive.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        if contentType == "application/json" { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}
