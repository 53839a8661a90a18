import Foundation
import JSONBytes
import StatusCodes

/// One request object of a JSON-RPC body, located by the scanner: raw byte ranges, nothing decoded yet
/// except the method name.
struct JSONRPCCall: Sendable {
    /// The raw `id` token (string, number or null) to echo byte for byte; nil for a notification.
    var id: ArraySlice<UInt8>?
    var method: String
    var params: ArraySlice<UInt8>?
}

/// The error member of a response.
struct JSONRPCError: Error, Encodable {
    struct Details: Encodable {
        var status: String?
        var details: [RPCFieldViolation]?
        var requestID: String?

        enum CodingKeys: String, CodingKey {
            case status, details
            case requestID = "requestId"
        }
    }

    var code: Int
    var message: String
    var data: Details?

    /// JSON-RPC 2.0's own errors, each code once, with the label the metrics count it under. Application
    /// errors carry their `StatusCode` instead.
    enum ProtocolCode: Int {
        case parse = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602
        case internalError = -32603

        var label: String {
            switch self {
            case .parse: "PARSE_ERROR"
            case .invalidRequest: "INVALID_REQUEST"
            case .methodNotFound: "METHOD_NOT_FOUND"
            case .invalidParams: "INVALID_PARAMS"
            case .internalError: "INTERNAL_ERROR"
            }
        }
    }

    /// The label of the metrics.
    var metricStatus: String { ProtocolCode(rawValue: code)?.label ?? data?.status ?? "CODE_\(code)" }

    static func parse() -> JSONRPCError { JSONRPCError(code: ProtocolCode.parse.rawValue, message: "Parse error") }

    static func invalidRequest(_ reason: String) -> JSONRPCError {
        JSONRPCError(code: ProtocolCode.invalidRequest.rawValue, message: "Invalid Request: \(reason)")
    }

    static func methodNotFound(_ name: String) -> JSONRPCError {
        JSONRPCError(code: ProtocolCode.methodNotFound.rawValue, message: "Method not found: \(name)")
    }

    static func invalidParams(_ violations: [RPCFieldViolation], message: String? = nil) -> JSONRPCError {
        let violations = violations.map {
            RPCFieldViolation(field: ErrorText.cut($0.field, to: 200), description: ErrorText.cut($0.description))
        }
        let summary = message ?? violations.first.map { "\($0.field.isEmpty ? "params" : $0.field): \($0.description)" }
        return JSONRPCError(
            code: ProtocolCode.invalidParams.rawValue, message: "Invalid params" + (summary.map { ": \($0)" } ?? ""),
            data: Details(status: StatusCode.invalidArgument.name, details: violations.isEmpty ? nil : violations))
    }

    static func internalError(requestID: String) -> JSONRPCError {
        JSONRPCError(
            code: ProtocolCode.internalError.rawValue, message: "Internal error (request \(requestID))",
            data: Details(requestID: requestID))
    }

    /// A gRPC-style application error.
    static func application(_ error: RPCError, requestID: String? = nil) -> JSONRPCError {
        let violations = error.fieldViolations.map {
            RPCFieldViolation(field: ErrorText.cut($0.field, to: 200), description: ErrorText.cut($0.description))
        }
        return JSONRPCError(
            code: error.code, message: ErrorText.cut(error.message),
            data: Details(
                status: error.status, details: violations.isEmpty ? nil : violations, requestID: requestID))
    }
}

extension JSONRPCCall {
    enum Parsed {
        case call(JSONRPCCall)
        /// Not a valid request object; `id` is echoed when it could be read.
        case invalid(id: ArraySlice<UInt8>?, reason: String)
    }

    /// Whether `bytes` are the UTF-8 of `literal`: one length test and a `memcmp`, not a walk of a
    /// `String.UTF8View` index by index.
    static func bytes(_ bytes: ArraySlice<UInt8>, are literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, literal.utf8Start, $0.count) == 0 }
    }

    /// Reads one request object in `range` of an already validated document: its members are only
    /// delimited, not checked again, so the params are read once more only by whoever decodes them.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8], range: Range<Int>) -> Parsed {
        guard bytes[range.lowerBound] == UInt8(ascii: "{") else {
            return .invalid(id: nil, reason: "a request must be an object")
        }
        var version: ArraySlice<UInt8>?
        var method: ArraySlice<UInt8>?
        var id: ArraySlice<UInt8>?
        var params: ArraySlice<UInt8>?
        var scanner = JSONScanner(buffer, maxDepth: .max, start: range.lowerBound)
        let walked = scanner.skipUncheckedObject { name, valueRange in
            var key = bytes[(name.lowerBound + 1)..<(name.upperBound - 1)]
            if key.contains(UInt8(ascii: "\\")) {
                // `"\u006dethod"` is the key `method`: rare enough to decode the slow way.
                let decoded = try? JSONDecoder().decode(String.self, from: Data(bytes[name]))
                key = Array((decoded ?? "").utf8)[...]
            }
            let value = bytes[valueRange]
            if Self.bytes(key, are: "jsonrpc") {
                version = value
            } else if Self.bytes(key, are: "method") {
                method = value
            } else if Self.bytes(key, are: "id") {
                id = value
            } else if Self.bytes(key, are: "params") {
                params = value
            }
            return true
        }
        guard walked else { return .invalid(id: nil, reason: "malformed") }
        // An id of the wrong type cannot be echoed: the error then carries null.
        if let token = id, let first = token.first {
            let isString = first == UInt8(ascii: "\"")
            let isNumber = first == UInt8(ascii: "-") || JSONScanner.isDigit(first)
            let isNull = first == UInt8(ascii: "n")
            guard isString || isNumber || isNull else {
                return .invalid(id: nil, reason: "id must be a string, a number or null")
            }
        }
        guard let version, Self.bytes(version, are: "\"2.0\"") else {
            return .invalid(id: id, reason: "jsonrpc must be \"2.0\"")
        }
        guard let method, method.first == UInt8(ascii: "\"") else {
            return .invalid(id: id, reason: "method must be a string")
        }
        if let params, params.first != UInt8(ascii: "{") && params.first != UInt8(ascii: "[") {
            return .invalid(id: id, reason: "params must be an object or an array")
        }
        let name: String
        if method.contains(UInt8(ascii: "\\")) {
            guard let decoded = try? JSONDecoder().decode(String.self, from: Data(method)) else {
                return .invalid(id: id, reason: "method must be a string")
            }
            name = decoded
        } else {
            name = String(decoding: method.dropFirst().dropLast(), as: UTF8.self)
        }
        return .call(JSONRPCCall(id: id, method: name, params: params))
    }
}

/// Response bytes, assembled around already-encoded results.
enum JSONRPCResponse {
    static let null: ArraySlice<UInt8> = Array("null".utf8)[...]
    private static let head = Array(#"{"jsonrpc":"2.0","id":"#.utf8)

    static func result(id: ArraySlice<UInt8>, _ result: [UInt8]) -> [UInt8] {
        var out = head
        out.reserveCapacity(head.count + id.count + result.count + 11)
        out += id
        out += #","result":"#.utf8
        out += result
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func error(id: ArraySlice<UInt8>?, _ error: JSONRPCError, codec: JSONRPCCodec) -> [UInt8] {
        var out = head
        out += id ?? null
        out += #","error":"#.utf8
        if let encoded = try? codec.encoder.encode(error) {
            out += encoded
        } else {
            out += #"{"code":-32603,"message":"Internal error"}"#.utf8
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func batch(_ members: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(members.reduce(2) { $0 + $1.count + 1 })
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += member
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
