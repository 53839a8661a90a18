import Foundation
import RouteCore
import RouteRegistryClient

/// Writes from the CLI carry a fresh `requestId` (`API.RequestID`) and are retried with the same one when
/// the registry could not be asked or did not answer in time: the server returns the first attempt's
/// outcome if it committed, so a retry never writes twice. Other failures are the answer and are not retried.
enum IdempotentRetry {
    /// Pauses before the second and third attempts.
    static let pauses: [Duration] = [.milliseconds(500), .seconds(2)]

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

    /// Calls `send` with `params` (given a request id for writes), retrying transient failures.
    static func call(method: String, params: Data, _ send: (Data) throws -> Data) throws -> Data {
        let params = withRequestID(params, method: method)
        guard API.RequestID.methods.contains(method) else { return try send(params) }
        for pause in pauses {
            do { return try send(params) } catch  where isTransient(error) {
                Thread.sleep(
                    forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            }
        }
        return try send(params)
    }
}
