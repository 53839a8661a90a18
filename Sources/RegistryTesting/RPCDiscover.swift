import JSONRPC
import RouteCore

/// `rpc.discover`, OpenRPC's own method, described like the registry's (for the test that holds the served
/// table to the OpenRPC document).
public enum RPCDiscover: RPCMethodDescriptor {
    public static let name = RPCMethod.discoverName
    public static let access = Access.public
    public static let traits = MethodTraits.read(from: .snapshot)
    public static func scope(_ _: Input) -> CallScope { .unscoped }
    public typealias Input = Empty
    /// The OpenRPC document.
    public typealias Output = JSONValue
}
