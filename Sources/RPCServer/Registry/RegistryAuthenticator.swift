import RouteCore
import RegistryService

/// Bearer tokens resolved against the registry's token table (by SHA-256, from the snapshot).
public struct RegistryAuthenticator: Authenticator {
    let service: RegistryService

    public init(service: RegistryService) { self.service = service }

    public func principal(forToken token: String) throws -> Principal? {
        service.authenticate(secret: token)
    }
}
