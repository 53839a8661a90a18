import Dispatch
import RouteCore

/// What the calls of one HTTP request share: the transport, the deadline, and the caller (resolved at most
/// once, when the first non-public method needs it).
struct CallSession {
    let transport: RPCTransport
    let deadline: Result<ContinuousClock.Instant?, RegistryError>
    var principal: Result<Principal?, any Error>?

    /// The longest `X-Request-Timeout-Ms` accepted: one day.
    static let maxTimeoutMs = 86_400_000

    init(transport: RPCTransport) {
        self.transport = transport
        guard let header = transport.requestTimeout else {
            deadline = .success(nil)
            return
        }
        let text = header.trimmingSpaces
        if !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int(text),
            ms <= Self.maxTimeoutMs
        {
            deadline = .success(ContinuousClock.now.advanced(by: .milliseconds(ms)))
        } else {
            deadline = .failure(
                .invalidArgument(
                    field: "X-Request-Timeout-Ms",
                    "must be a whole number of milliseconds between 0 and \(Self.maxTimeoutMs)"))
        }
    }
}

extension JSONRPCDispatcher {
    /// Runs one call that answers now; nil for a notification.
    func runCall(_ call: JSONRPCCall, session: inout CallSession, inBatch: Bool) -> [UInt8]? {
        guard let method = methods[call.method] else {
            return answer(call, error: .methodNotFound(call.method), metricMethod: "-")
        }
        let context: RPCContext
        switch prepare(call, method: method, session: &session) {
        case .failure(let error): return answer(call, error: error, metricMethod: method.name)
        case .success(let prepared): context = prepared
        }
        if let fast = fastPaths[call.method], let values = fast.read(call.params) {
            do {
                if let bytes = try fast.answer(context, values) {
                    return finish(.success(bytes), call: call, context: context)
                }
            } catch {
                return finish(.failure(error), call: call, context: context)
            }
        }
        if let refused = checkContract(call) { return answer(call, error: refused, metricMethod: method.name) }
        let params = RPCParams(bytes: call.params, codec: codec)
        switch method.body {
        case .immediate(let handler):
            return finish(Result { try handler(context, params) }, call: call, context: context)
        case .deferred:
            if inBatch {
                let error = RegistryError.failedPrecondition("\(method.name) cannot be called in a batch")
                return answer(call, error: .application(error), metricMethod: method.name)
            }
            // A long poll sent as a notification has nobody waiting for its answer: running it would only hold a
            // watcher (and the request body) with no connection behind it, outside every connection limit.
            return nil
        }
    }

    /// Starts a deferred call with an id; `deliver` gets its response bytes exactly once. Returns the
    /// cancellation used when the server stops.
    func startDeferred(
        _ call: JSONRPCCall, method: RPCMethod, session: inout CallSession,
        deliver: @escaping @Sendable ([UInt8]) -> Void
    ) -> @Sendable () -> Void {
        guard case .deferred(let handler) = method.body else { return {} }
        let context: RPCContext
        switch prepare(call, method: method, session: &session) {
        case .failure(let error):
            if let response = answer(call, error: error, metricMethod: method.name) { deliver(response) }
            return {}
        case .success(let prepared): context = prepared
        }
        if let refused = checkContract(call) {
            if let response = answer(call, error: refused, metricMethod: method.name) { deliver(response) }
            return {}
        }
        // The call outlives the request body while it waits: keep copies of its few bytes, not slices of the body.
        let call = JSONRPCCall(
            id: call.id.map { ArraySlice(Array($0)) }, method: call.method,
            params: call.params.map {
                ArraySlice(Array($0))
            })
        let gate = CompletionGate()
        let completion = RPCCompletion<RawJSON>(codec: codec) { [self] result in
            guard gate.claim() else { return }
            if let response = finish(result, call: call, context: context) { deliver(response) }
        }
        // A long poll must not outlive its caller's deadline: answer DEADLINE_EXCEEDED then, whatever the handler
        // does later (the gate keeps whichever answer comes first). The timer holds the completion only until
        // the call is answered, so an answered call is not kept alive for the rest of a long deadline.
        let pending = PendingCompletion(completion)
        if let remaining = context.remaining {
            let nanos = max(
                0, remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanos))) {
                pending.take()?.fail(RegistryError(.deadlineExceeded, "deadline exceeded"))
            }
        }
        let answered = RPCCompletion<RawJSON>(codec: codec) { result in pending.take()?.deliver(result) }
        do {
            try handler(context, RPCParams(bytes: call.params, codec: codec), answered)
        } catch {
            answered.fail(error)
        }
        return { pending.take()?.fail(RegistryError.unavailable("the server is shutting down")) }
    }

    /// The params checked against the API description; the refusal names the field and the rule.
    private func checkContract(_ call: JSONRPCCall) -> JSONRPCError? {
        guard let contract else { return nil }
        do {
            try contract.check(method: call.method, params: call.params)
            return nil
        } catch {
            return .invalidParams([error.fieldViolation])
        }
    }

    /// Checks the deadline header, the caller's access and the deadline, and builds the context.
    private func prepare(
        _ call: JSONRPCCall, method: RPCMethod, session: inout CallSession
    ) -> Result<RPCContext, JSONRPCError> {
        let transport = session.transport
        let deadline: ContinuousClock.Instant?
        switch session.deadline {
        case .failure(let error): return .failure(.application(error))
        case .success(let value): deadline = value
        }
        var principal: Principal?
        if method.access != .public {
            if session.principal == nil { session.principal = Result { try authenticate(transport.authorization) } }
            switch session.principal! {
            case .failure(let error):
                return .failure(applicationError(error, requestID: transport.requestID, method: method.name))
            case .success(let resolved):
                guard let resolved else {
                    return .failure(.application(RegistryError(.unauthenticated, "a valid bearer token is required")))
                }
                guard resolved.role != .public, resolved.role >= method.access else {
                    return .failure(
                        .application(
                            RegistryError(.permissionDenied, "\(method.name) needs the \(method.access.rawValue) role"))
                    )
                }
                principal = resolved
            }
        }
        let context = RPCContext(
            requestID: transport.requestID, method: method.name, principal: principal, deadline: deadline,
            host: transport.host, userAgent: transport.userAgent, remoteAddress: transport.remoteAddress,
            isNotification: call.id == nil)
        if context.isExpired { return .failure(.application(RegistryError(.deadlineExceeded, "deadline exceeded"))) }
        return .success(context)
    }

    private func authenticate(_ header: String?) throws -> Principal? {
        guard let header, let authenticator else { return nil }
        let value = header.trimmingSpaces
        guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        let token = String(value.dropFirst(7)).trimmingSpaces
        guard !token.isEmpty else { return nil }
        return try authenticator.principal(forToken: String(token))
    }

    /// Turns a handler's outcome into response bytes (nil for a notification) and counts it.
    func finish(_ result: Result<[UInt8], any Error>, call: JSONRPCCall, context: RPCContext) -> [UInt8]? {
        switch result {
        case .success(let bytes):
            // A write (releaser or admin) that succeeded has committed, and the store commits only before the
            // deadline: answer its success even when building the answer ran past the deadline, or a client
            // would be told a committed write failed.
            let isWrite = (methods[context.method]?.access ?? .public) >= .releaser
            if context.isExpired && !isWrite {
                return answer(
                    call, error: .application(RegistryError(.deadlineExceeded, "deadline exceeded")),
                    metricMethod: context.method)
            }
            metrics?.callFinished(method: context.method, status: "OK")
            guard let id = call.id else { return nil }
            return JSONRPCResponse.result(id: id, bytes)
        case .failure(let error):
            let wire = applicationError(error, requestID: context.requestID, method: context.method)
            return answer(call, error: wire, metricMethod: context.method)
        }
    }

    /// The wire form of a thrown error; anything unexpected is logged and answered without its details.
    private func applicationError(_ error: any Error, requestID: String, method: String) -> JSONRPCError {
        switch error {
        case let invalid as InvalidParams:
            return .invalidParams(invalid.error.fieldViolations)
        case let registry as RegistryError:
            if registry.code == .internal {
                logFailure(registry, requestID: requestID, method: method)
                return .application(.internal(requestID: requestID), requestID: requestID)
            }
            return .application(registry)
        case let encoding as ResultEncodingFailed:
            logFailure(encoding.error, requestID: requestID, method: method)
            return .internalError(requestID: requestID)
        default:
            logFailure(error, requestID: requestID, method: method)
            return .application(.internal(requestID: requestID), requestID: requestID)
        }
    }

    private func answer(_ call: JSONRPCCall, error: JSONRPCError, metricMethod: String) -> [UInt8]? {
        metrics?.callFinished(method: metricMethod, status: error.metricStatus)
        guard let id = call.id else { return nil }
        return JSONRPCResponse.error(id: id, error, codec: codec)
    }

    private func logFailure(_ error: any Error, requestID: String, method: String) {
        log.line { line in
            line.key("ts", first: true)
            line.timestamp()
            line.key("level")
            line.string("error")
            line.key("requestId")
            line.string(requestID)
            line.key("rpc")
            line.string(method)
            line.key("error")
            line.string(String(describing: error))
        }
    }
}
