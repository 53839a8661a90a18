import JSONRPC
import RegistryService
import RouteCore

/// Bearer tokens resolved against the registry's token table (by SHA-256, from the snapshot).
public struct RegistryAuthenticator: Authenticator {
    let service: RegistryService

    public init(service: RegistryService) { self.service = service }

    public func principal(forToken token: String) throws -> RPCPrincipal? {
        service.authenticate(secret: token).map { RPCPrincipal(id: $0.id, access: $0.role.rpc, value: $0) }
    }
}
