import CMicroHTTPD
import Dispatch
import Foundation

/// Writes one JSON line per request once it is over: time, request id, method, path, the JSON-RPC methods
/// it called, status and duration (`RequestLog`); the client's address (`remote`) only when asked to, since
/// an address identifies a visitor and the log is kept and shipped (`serve --log-client-address`).
///
/// A logged GET makes no strings for its line: the id is written from the request's number and the
/// address read from the connection as the line is written.
public struct RequestLogging: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.head, .finished] }

    public let log: RequestLog
    /// Whether lines carry the client's address.
    public let clientAddress: Bool

    public init(log: RequestLog, clientAddress: Bool = false) {
        self.log = log
        self.clientAddress = clientAddress
    }

    public func head(_ request: HTTPRequest) -> HTTPResponse? {
        // Numbered in arrival order, so ids follow the order requests came in.
        if log.isEnabled { _ = request.requestNumber }
        return nil
    }

    public func finished(_ request: HTTPRequest) {
        guard log.isEnabled else { return }
        let nanos = request.durationNanos
        log.line { line in
            line.key("ts", first: true)
            line.timestamp()
            line.key("requestId")
            if let made = request.madeRequestID {
                line.string(made)
            } else {
                Self.appendRequestID(request, to: &line)
            }
            line.key("method")
            line.string(request.method)
            line.key("path")
            line.string(request.path)
            let calls = request.context.loggedCalls
            if !calls.isEmpty {
                line.key("rpc")
                line.writeByte(UInt8(ascii: "["))
                for (index, method) in calls.enumerated() {
                    if index > 0 { line.writeByte(UInt8(ascii: ",")) }
                    line.string(method)
                }
                line.writeByte(UInt8(ascii: "]"))
            }
            line.key("status")
            line.integer(request.status)
            line.key("durationMs")
            line.milliseconds(nanos: nanos)
            if clientAddress {
                line.key("remote")
                Self.appendClientAddress(of: request, to: &line)
            }
        }
    }

    /// Appends the request's id, quoted, written from its number.
    private static func appendRequestID(_ request: HTTPRequest, to line: inout LogLineBuffer) {
        let core = request.core
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: core.requestIDCapacity) { scratch in
            let count = core.writeRequestID(request.requestNumber, into: scratch)
            line.string(utf8: UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Appends the client's address, quoted, read from the connection (libmicrohttpd keeps it until the
    /// request-completed callback returns).
    private static func appendClientAddress(of request: HTTPRequest, to line: inout LogLineBuffer) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            buffer[0] = 0
            routereg_mhd_client_address(request.connection, buffer.baseAddress, buffer.count)
            let length = strlen(buffer.baseAddress!)
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: length) {
                line.string(utf8: UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }
}

/// What a request called beyond its path (the JSON-RPC methods of a body), for its log line's `rpc`.
@usableFromInline
enum LoggedCallsKey: RequestContextKey {
    @inlinable static var defaultValue: [String] { [] }
}

extension RequestContext {
    /// What the request called beyond its path, written into its log line by `RequestLogging`.
    public var loggedCalls: [String] {
        @inlinable get { self[LoggedCallsKey.self] }
        @inlinable set { self[LoggedCallsKey.self] = newValue }
    }
}
