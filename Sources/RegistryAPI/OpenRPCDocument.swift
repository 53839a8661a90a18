import Foundation
import JSONRPC

/// The OpenRPC document (`Schema/registry.openrpc.json`), shipped as a resource and served by `rpc.discover`.
public enum OpenRPCDocument {
    /// The document's bytes, or nil when the resource is missing from the build.
    public static let bytes: [UInt8]? = {
        guard let url = Bundle.module.url(forResource: "registry.openrpc", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return Array(data)
    }()
}

extension ParamsContract {
    /// The contract of the document shipped with the server (`OpenRPCDocument`).
    public static let registry: ParamsContract = {
        guard let bytes = OpenRPCDocument.bytes else { preconditionFailure("the OpenRPC document is not bundled") }
        do { return try ParamsContract(openRPC: bytes) } catch {
            preconditionFailure("the OpenRPC document cannot be enforced: \(error)")
        }
    }()
}
