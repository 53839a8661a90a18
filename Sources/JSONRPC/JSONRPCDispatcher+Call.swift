import Dispatch

/// What the calls of one HTTP request share: the transport and the caller (resolved at most once, when the
/// first non-public method needs it).
struct CallSession {
    let transport: RPCTransport
    var principal: Result<RPCPrincipal?, any Error>?
    /// Set when the caller's failed sign-in was refused by the sign-in limit: the HTTP answer is 429 with
    /// `Retry-After` this many seconds.
    var retryAfterSeconds: Int?

    init(transport: RPCTransport) { self.transport = transport }
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
        if let reader = flatReaders[call.method], let values = reader.read(call.params),
            case .immediate(let handler) = method.body
        {
            do {
                if let bytes = try handler(context, RPCParams(bytes: call.params, codec: codec), values) {
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
            // Without flat values the handler always answers (nil only refuses flat values).
            return finish(Result { try handler(context, params, nil) ?? [] }, call: call, context: context)
        case .deferred:
            if inBatch {
                let error = RPCError.failedPrecondition("\(method.name) cannot be called in a batch")
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
                pending.take()?.fail(RPCError.deadlineExceeded())
            }
        }
        let answered = RPCCompletion<RawJSON>(codec: codec) { result in pending.take()?.deliver(result) }
        do {
            try handler(context, RPCParams(bytes: call.params, codec: codec), answered)
        } catch {
            answered.fail(error)
        }
        return { pending.take()?.fail(RPCError.unavailable("the server is shutting down")) }
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
        switch transport.deadline {
        case .failure(let error): return .failure(.application(error))
        case .success(let value): deadline = value
        }
        var principal: RPCPrincipal?
        if method.access != .public {
            if session.principal == nil {
                session.principal = Result { try authenticate(transport.bearerToken) }
                limitFailedSignIn(&session)
            }
            switch session.principal! {
            case .failure(let error):
                return .failure(applicationError(error, requestID: transport.requestID, method: method.name))
            case .success(let resolved):
                guard let resolved else {
                    return .failure(.application(.unauthenticated("a valid bearer token is required")))
                }
                guard resolved.access != .public, resolved.access >= method.access else {
                    return .failure(
                        .application(.permissionDenied("\(method.name) needs the \(method.access.name) role")))
                }
                principal = resolved
            }
        }
        let context = RPCContext(
            requestID: transport.requestID, method: method.name, principal: principal, deadline: deadline,
            host: transport.host, userAgent: transport.userAgent, remoteAddress: transport.remoteAddress,
            isNotification: call.id == nil)
        if context.isExpired { return .failure(.application(.deadlineExceeded())) }
        return .success(context)
    }

    /// Counts a presented token that authenticated nobody (unknown, revoked, expired) against the client's
    /// address; past the limit, the request's calls are refused RESOURCE_EXHAUSTED and the answer is 429. A
    /// valid token is never counted nor refused; a call without a token is no sign-in.
    private func limitFailedSignIn(_ session: inout CallSession) {
        guard let signIns, let token = session.transport.bearerToken, !token.isEmpty else { return }
        switch session.principal {
        case .success(.none): break
        case .failure(let error as any RPCErrorConvertible) where error.rpcError.isUnauthenticated: break
        default: return
        }
        switch signIns.recordFailure(from: session.transport.remoteAddress) {
        case .counted: return
        case .limited(let seconds, let started):
            if let started { observer?.signInsLimited(started) }
            session.retryAfterSeconds = seconds
            session.principal = .failure(
                RPCError.resourceExhausted(
                    "too many failed sign-ins from this address; retry in \(seconds) s with a valid token"))
        }
    }

    private func authenticate(_ token: String?) throws -> RPCPrincipal? {
        guard let token, !token.isEmpty, let authenticator else { return nil }
        return try authenticator.principal(forToken: token)
    }

    /// Turns a handler's outcome into response bytes (nil for a notification) and counts it.
    func finish(_ result: Result<[UInt8], any Error>, call: JSONRPCCall, context: RPCContext) -> [UInt8]? {
        switch result {
        case .success(let bytes):
            // A write that succeeded has committed, and the store commits only before the deadline: answer its
            // success even when building the answer ran past the deadline, or a client would be told a
            // committed write failed.
            if context.isExpired && !isWrite(context.method) {
                return answer(
                    call, error: .application(.deadlineExceeded()),
                    metricMethod: context.method)
            }
            observer?.callFinished(method: context.method, status: "OK")
            guard let id = call.id else { return nil }
            return JSONRPCResponse.result(id: id, bytes)
        case .failure(let error):
            let wire = applicationError(error, requestID: context.requestID, method: context.method)
            return answer(call, error: wire, metricMethod: context.method)
        }
    }

    /// The wire form of a thrown error; anything unexpected is reported and answered without its details.
    private func applicationError(_ error: any Error, requestID: String, method: String) -> JSONRPCError {
        switch error {
        case let invalid as InvalidParams:
            return .invalidParams(invalid.error.fieldViolations)
        case let convertible as any RPCErrorConvertible:
            let wire = convertible.rpcError
            if wire.isInternal {
                observer?.internalFailure(requestID: requestID, method: method, error: error)
                return .application(.internal(requestID: requestID), requestID: requestID)
            }
            return .application(wire)
        case let encoding as ResultEncodingFailed:
            observer?.internalFailure(requestID: requestID, method: method, error: encoding.error)
            return .internalError(requestID: requestID)
        default:
            observer?.internalFailure(requestID: requestID, method: method, error: error)
            return .application(.internal(requestID: requestID), requestID: requestID)
        }
    }

    private func answer(_ call: JSONRPCCall, error: JSONRPCError, metricMethod: String) -> [UInt8]? {
        observer?.callFinished(method: metricMethod, status: error.metricStatus)
        guard let id = call.id else { return nil }
        return JSONRPCResponse.error(id: id, error, codec: codec)
    }
}
