import Foundation
import RouteCore
import RouteRegistryClient

/// Keyed writes from the CLI carry a fresh `requestId` (`API.RequestID`) and are retried with the same one
/// when the registry could not be asked or did not answer in time: the server returns the first attempt's
/// outcome if it committed, so a retry never writes twice. Reads are retried the same way (asking again
/// changes nothing); a write without a key (`Tokens.Create`) is not. Which is which comes from the method's
/// descriptor (`MethodTraits`). Other failures are the answer and are not retried.
enum IdempotentRetry {
    /// Pauses before the second and third attempts.
    static let pauses: [Duration] = [.milliseconds(500), .seconds(2)]

    /// Whether a call of `method` may be sent again after a transient failure: a read or an idempotent write.
    static func retries(_ method: String) -> Bool {
        guard let descriptor = API.all.first(where: { $0.name == method }) else { return false }
        return !descriptor.isWrite || descriptor.isIdempotent
    }

    /// `params` with a new `requestId` when `method` takes one and the caller did not set it.
    static func withRequestID(_ params: Data, method: String) -> Data {
        guard API.RequestID.methods.contains(method),
            var object = (try? JSONSerialization.jsonObject(with: params)) as? [String: Any],
            object["requestId"] == nil
        else { return params }
        object["requestId"] = "cli-" + UUID().uuidString.lowercased()
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? params
    }

    /// Whether `error` may be retried with the same request id: nothing answered, or the answer says the
    /// write may not have happened yet (UNAVAILABLE, DEADLINE_EXCEEDED).
    static func isTransient(_ error: any Error) -> Bool {
        if let client = error as? ClientError { return client.isConnectionProblem }
        if let registry = error as? RegistryError {
            return registry.code == .unavailable || registry.code == .deadlineExceeded
        }
        return false
    }

    /// Calls `send` with `params` (given a request id for keyed writes), retrying transient failures of the
    /// methods that may be sent again.
    static func call(method: String, params: Data, _ send: (Data) throws -> Data) throws -> Data {
        let params = withRequestID(params, method: method)
        guard retries(method) else { return try send(params) }
        for pause in pauses {
            do { return try send(params) } catch  where isTransient(error) {
                Thread.sleep(
                    forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            }
        }
        return try send(params)
    }
}
