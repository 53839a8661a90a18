import HTTPServing
import JSONRPC

extension HTTPServer {
    /// A server of the registry's protocol over any method table: `POST /rpc` answered by `dispatcher`,
    /// health, readiness and metrics, and `documents` on every other GET.
    public convenience init(
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
    /// A dispatcher whose calls are counted into `metrics` and whose unexpected failures go to `log`.
    public convenience init(
        methods: [RPCMethod], authenticator: (any Authenticator)? = nil, limits: JSONRPCLimits = JSONRPCLimits(),
        metrics: ServerMetrics? = nil, log: RequestLog, contract: ParamsContract? = nil
    ) {
        self.init(
            methods: methods, authenticator: authenticator, limits: limits,
            observer: ServerObserver(metrics: metrics, log: log), contract: contract)
    }
}
