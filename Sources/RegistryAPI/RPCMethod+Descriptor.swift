import JSONRPC
import RouteCore

/// The registry's methods come from its descriptors alone (`API`): name, access and input type, so the server
/// cannot serve a method that is not described (`DispatchTableTests` holds the table to the OpenRPC
/// document).
extension RPCMethod {
    /// A method answered when its handler returns, its result written by the codec's `JSONEncoder`.
    public init<Method: RPCMethodDescriptor>(
        _ method: Method.Type, _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Method.Output
    ) {
        self.init(name: Method.name, access: Method.access.rpc, handler)
        self = changingState(Method.access >= .releaser)
    }

    /// A method with its own encoder of the result and, optionally, a flat reader of its plain params.
    public init<Method: RPCMethodDescriptor>(
        _ method: Method.Type, encoder: RPCResultEncoder<Method.Output>,
        flatParams: FlatParams<Method.Input>? = nil,
        _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Method.Output
    ) {
        self.init(name: Method.name, access: Method.access.rpc, encoder: encoder, flatParams: flatParams, handler)
        self = changingState(Method.access >= .releaser)
    }

    /// A method whose handler answers in another shape than `Method.Output` (`CanOpen.GetTable` splices a
    /// stored table's bytes), written by `encoder`: its bytes must be what encoding the output would give.
    init<Method: RPCMethodDescriptor, Answer>(
        _ method: Method.Type, answer: Answer.Type, encoder: RPCResultEncoder<Answer>,
        flatParams: FlatParams<Method.Input>? = nil,
        _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Answer
    ) {
        self.init(name: Method.name, access: Method.access.rpc, encoder: encoder, flatParams: flatParams, handler)
        self = changingState(Method.access >= .releaser)
    }

    /// A long poll (`Associations.Watch`).
    public static func deferred<Method: RPCMethodDescriptor>(
        _ method: Method.Type,
        _ handler: @escaping @Sendable (RPCContext, Method.Input, RPCCompletion<Method.Output>) throws -> Void
    ) -> RPCMethod {
        RPCMethod.deferred(name: Method.name, access: Method.access.rpc, handler)
    }
}

extension Access {
    /// The role as the engine compares it.
    public var rpc: RPCAccess {
        switch self {
        case .public: .public
        case .reader: RPCAccess(level: 1, name: rawValue)
        case .releaser: RPCAccess(level: 2, name: rawValue)
        case .admin: RPCAccess(level: 3, name: rawValue)
        }
    }
}

extension RPCContext {
    /// The registry's principal of the caller (set for every method that is not public).
    public var registryPrincipal: Principal? { principal?.value as? Principal }
}

/// `rpc.discover`, OpenRPC's own method, described like the registry's (for the test that holds the served
/// table to the OpenRPC document).
public enum RPCDiscover: RPCMethodDescriptor {
    public static let name = RPCMethod.discoverName
    public static let access = Access.public
    public typealias Input = Empty
    /// The OpenRPC document.
    public typealias Output = JSONValue
}
