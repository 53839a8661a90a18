import JSONRPC
import RegistryService
import RouteCore

/// Bearer tokens resolved against the registry's token table (by SHA-256, from the snapshot). An expired
/// token is refused UNAUTHENTICATED, saying when it expired.
public struct RegistryAuthenticator: Authenticator {
    let service: RegistryService

    public init(service: RegistryService) { self.service = service }

    public func principal(forToken token: String) throws -> RPCPrincipal? {
        try service.authenticate(secret: token).map {
            RPCPrincipal(id: $0.id, access: $0.role.rpc, value: AuthenticatedCaller(principal: $0, service: service))
        }
    }
}

/// A call's authenticated caller as the registry's methods see it: the token's principal, and the service
/// that resolves what a call reaches (a domain's apps, a link's app) for the scope check.
struct AuthenticatedCaller: Sendable {
    let principal: Principal
    let service: RegistryService
}
