import JSONRPC
import RouteCore

extension RegistryError: RPCErrorConvertible {
    /// The registry's error as the engine sends it: its status, message and fields as they are.
    public var rpcError: RPCError {
        RPCError(
            code, message: message,
            fieldViolations: fieldViolations.map { RPCFieldViolation(field: $0.field, description: $0.description) })
    }
}
