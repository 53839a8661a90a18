/// One JSON-RPC method as a caller needs it: its wire name and the shapes of its params and result.
///
/// The server's descriptors (RouteCore's `RPCMethodDescriptor`, which adds who may call a method) refine it,
/// so `RPCClient.call(_:_:)` takes them as well as the client's own descriptions of the public read
/// methods, without the client linking the server's descriptors.
public protocol RPCMethodSignature: Sendable {
    /// The params object.
    associatedtype Input: Codable & Sendable
    /// The result.
    associatedtype Output: Codable & Sendable

    /// `Service.Method`, PascalCase.
    static var name: String { get }
}
