import Foundation
import RouteMatching

/// The JSON-RPC 2.0 envelope around params and results, kept in one place for the async and the blocking
/// paths of `RPCClient`.
enum RPCWire {
    /// The request body: the params' bytes are spliced in unchanged, so `callRaw` sends exactly what the
    /// caller gave.
    static func requestBody(method: String, paramsJSON: Data) throws -> Data {
        guard JSONMembers(paramsJSON) != nil else {
            throw ClientError.invalidRequest(reason: "params must be a JSON object")
        }
        let name = try JSONEncoder().encode(method)
        var body = Data(#"{"jsonrpc":"2.0","id":1,"method":"#.utf8)
        body.append(name)
        body.append(Data(#","params":"#.utf8))
        body.append(paramsJSON)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The encoded params object of a typed call.
    static func encodeParams<Input: Encodable>(_ input: Input) throws -> Data {
        do {
            return try CanonicalJSON.encode(input)
        } catch {
            throw ClientError.invalidRequest(reason: "params are not encodable as JSON")
        }
    }

    /// The `result` bytes of an HTTP answer, or the error it carries.
    static func result(body: Data, httpStatus: Int) throws -> Data {
        guard let members = JSONMembers(body), members["result"] != nil || members["error"] != nil else {
            if httpStatus != 200 { throw ClientError.httpStatus(httpStatus) }
            throw ClientError.invalidResponse(reason: "the body is not a JSON-RPC response")
        }
        if members.hasValue("error"), let errorJSON = members["error"] {
            throw decodeError(errorJSON)
        }
        guard let result = members["result"] else {
            throw ClientError.invalidResponse(reason: "the response has neither result nor error")
        }
        return result
    }

    /// Decodes a typed result.
    static func decode<Output: Decodable>(_ type: Output.Type, method: String, from result: Data) throws -> Output {
        do {
            return try JSONDecoder().decode(Output.self, from: result)
        } catch {
            throw ClientError.invalidResponse(reason: "the result of \(method) does not have the expected shape")
        }
    }

    /// A JSON-RPC error object as a `RegistryError` (gRPC codes, kept even when this build does not know
    /// them) or a `ClientError.protocolError` (the -32xxx range the JSON-RPC spec reserves).
    static func decodeError(_ json: Data) -> any Error {
        guard let wire = try? JSONDecoder().decode(WireError.self, from: json) else {
            return ClientError.invalidResponse(reason: "the error object is malformed")
        }
        if (-32768)...(-32000) ~= wire.code {
            return ClientError.protocolError(code: wire.code, message: wire.message)
        }
        let violations = (wire.data?.details ?? []).compactMap { detail -> FieldViolation? in
            guard let field = detail.field else { return nil }
            return FieldViolation(field: field, description: detail.description ?? "")
        }
        return RegistryError(StatusCode(rawValue: wire.code), wire.message, fieldViolations: violations)
    }

    /// `error` of a response. `details` stays loosely typed: servers may add detail kinds other than field
    /// violations, and those must not make the whole error undecodable.
    private struct WireError: Decodable {
        struct ErrorData: Decodable {
            var status: String?
            var details: [Detail]?
        }
        /// One entry of `details`, read for its field violation: members of another type, or a detail that
        /// is not an object, read as absent.
        struct Detail: Decodable {
            var field: String?
            var description: String?

            enum CodingKeys: String, CodingKey { case field, description }

            init(from decoder: any Decoder) throws {
                let c = try? decoder.container(keyedBy: CodingKeys.self)
                field = (try? c?.decodeIfPresent(String.self, forKey: .field)) ?? nil
                description = (try? c?.decodeIfPresent(String.self, forKey: .description)) ?? nil
            }
        }
        var code: Int
        var message: String
        var data: ErrorData?

        enum CodingKeys: String, CodingKey { case code, message, data }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            code = try c.decode(Int.self, forKey: .code)
            message = (try? c.decodeIfPresent(String.self, forKey: .message)) ?? ""
            data = try? c.decodeIfPresent(ErrorData.self, forKey: .data)
        }
    }
}
