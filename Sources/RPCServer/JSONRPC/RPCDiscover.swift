import RouteCore

/// `rpc.discover`, OpenRPC's own method: every dispatcher may serve it (`RPCMethod.discover`), so it is
/// described here, beside the transport, rather than among the registry's methods in `API`.
public enum RPCDiscover: RPCMethodDescriptor {
    public static let name = "rpc.discover"
    public static let access = Access.public
    public typealias Input = Empty
    /// The OpenRPC document.
    public typealias Output = JSONValue
}
