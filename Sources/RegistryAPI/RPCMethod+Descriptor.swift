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
        self.init(name: Method.name, access: Method.access.rpc, Self.scoped(Method.self, handler))
        self = described(by: Method.self)
    }

    /// A method with its own encoder of the result and, optionally, a flat reader of its plain params.
    public init<Method: RPCMethodDescriptor>(
        _ method: Method.Type, encoder: RPCResultEncoder<Method.Output>,
        flatParams: FlatParams<Method.Input>? = nil,
        _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Method.Output
    ) {
        self.init(
            name: Method.name, access: Method.access.rpc, encoder: encoder, flatParams: flatParams,
            Self.scoped(Method.self, handler))
        self = described(by: Method.self)
    }

    /// A method whose handler answers in another shape than `Method.Output` (`CanOpen.GetTable` splices a
    /// stored table's bytes), written by `encoder`: its bytes must be what encoding the output would give.
    init<Method: RPCMethodDescriptor, Answer>(
        _ method: Method.Type, answer: Answer.Type, encoder: RPCResultEncoder<Answer>,
        flatParams: FlatParams<Method.Input>? = nil,
        _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Answer
    ) {
        self.init(
            name: Method.name, access: Method.access.rpc, encoder: encoder, flatParams: flatParams,
            Self.scoped(Method.self, handler))
        self = described(by: Method.self)
    }

    /// This method with the traits its descriptor declares (`MethodTraits`): a write is answered like one
    /// (even past its deadline, outside the batch budget), a method reading the database runs off the
    /// HTTP workers, and a long call of one whose cost grows with its input at low priority.
    func described<Method: RPCMethodDescriptor>(by method: Method.Type) -> RPCMethod {
        changingState(Method.isWrite).waitingOnDatabase(Method.traits.source == .database)
            .growingWithParams(Method.traits.costGrowsWithInput)
    }

    /// `handler` behind the method's scope check: what the call reaches (`Method.scope`, declared on the
    /// descriptor) must lie within the caller's apps, else PERMISSION_DENIED naming the app. Every registry
    /// method is made through here, so no handler checks scope itself. A public call has no caller (nothing
    /// to check), nor does a principal for every app; a scoped caller this layer cannot resolve is refused
    /// (fail closed).
    static func scoped<Method: RPCMethodDescriptor, Answer>(
        _ method: Method.Type, _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Answer
    ) -> @Sendable (RPCContext, Method.Input) throws -> Answer {
        { context, input in
            try checkScope(Method.self, context, input)
            return try handler(context, input)
        }
    }

    /// The scope check of `scoped`, for immediate and deferred methods alike.
    static func checkScope<Method: RPCMethodDescriptor>(
        _ method: Method.Type, _ context: RPCContext, _ input: Method.Input
    ) throws {
        guard let principal = context.principal else { return }
        if let caller = principal.value as? AuthenticatedCaller {
            try caller.service.authorize(
                caller.principal, Method.scope(input), method: Method.name, writes: Method.isWrite)
        } else if (principal.value as? Principal)?.apps != nil || !(principal.value is Principal) {
            throw RegistryError(.permissionDenied, "\(Method.name): the caller's apps cannot be checked")
        }
    }

    /// A long poll (`Associations.Watch`).
    public static func deferred<Method: RPCMethodDescriptor>(
        _ method: Method.Type,
        _ handler: @escaping @Sendable (RPCContext, Method.Input, RPCCompletion<Method.Output>) throws -> Void
    ) -> RPCMethod {
        RPCMethod.deferred(name: Method.name, access: Method.access.rpc) { context, input, completion in
            try checkScope(Method.self, context, input)
            try handler(context, input, completion)
        }.described(by: Method.self)
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
    public var registryPrincipal: Principal? {
        (principal?.value as? AuthenticatedCaller)?.principal ?? principal?.value as? Principal
    }

    /// The apps the caller's token is limited to (nil: every app, or a public call): what list methods
    /// filter by.
    public var scope: [String]? { registryPrincipal?.apps }
}
