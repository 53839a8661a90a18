import HTTPServing
import JSONRPC

@testable import RegistryAPI

// Test-only wiring, kept out of the shipping targets: the registry's operations (JSON-RPC, health,
// readiness, metrics) over any method table, which the transport and engine tests serve their own methods on.

extension RegistryRoutes {
    /// JSON-RPC, health, metrics, and `documents` on every other GET.
    static func protocolRouter(
        rpc: JSONRPCEndpoint, documents: (any StaticDocumentProvider)?, readiness: @escaping @Sendable () -> Bool,
        metrics: ServerMetrics
    ) -> Router {
        var router = Router()
        registerOperations(
            on: &router, Endpoints(rpc: rpc, readiness: readiness, metrics: metrics, build: .unknown), admin: [.any])
        if let documents { router.get("/*", label: "static", DocumentLookup.responder(documents)) }
        return router
    }
}

extension HTTPServer {
    /// A server of the registry's protocol over any method table: `POST /rpc` answered by `dispatcher`,
    /// health, readiness and metrics, and `documents` on every other GET.
    convenience init(
        configuration: HTTPServerConfiguration, dispatcher: JSONRPCDispatcher,
        documents: (any StaticDocumentProvider)? = nil, readiness: @escaping @Sendable () -> Bool = { true },
        metrics: ServerMetrics, log: RequestLog = .standardError
    ) {
        self.init(
            configuration: configuration,
            router: RegistryRoutes.protocolRouter(
                rpc: JSONRPCEndpoint(dispatcher: dispatcher), documents: documents, readiness: readiness,
                metrics: metrics),
            metrics: metrics, log: log)
    }
}

extension JSONRPCDispatcher {
    /// A dispatcher whose calls are counted into `metrics` and whose unexpected failures go to `log`, as the
    /// registry's server observes them.
    convenience init(
        methods: [RPCMethod], authenticator: (any Authenticator)? = nil, limits: JSONRPCLimits = JSONRPCLimits(),
        metrics: ServerMetrics? = nil, log: RequestLog, contract: ParamsContract? = nil
    ) {
        self.init(
            methods: methods, authenticator: authenticator, limits: limits,
            observer: ServerObserver(metrics: metrics, log: log), contract: contract)
    }
}
