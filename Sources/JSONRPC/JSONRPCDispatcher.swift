import Dispatch
import Foundation
import JSONBytes

/// Limits on what one JSON-RPC body may hold.
public struct JSONRPCLimits: Sendable {
    /// Most calls in a batch; a larger batch is answered with one -32600 error.
    public var maxBatchSize: Int
    /// Deepest nesting of arrays and objects; deeper documents are answered -32600 before any parsing.
    public var maxNestingDepth: Int
    /// Most bytes the answers of one batch may add up to. A few KB of calls must not make the server send
    /// megabytes (100 `rpc.discover` calls would be 16 MB): once the budget is spent, the remaining members
    /// are answered RESOURCE_EXHAUSTED instead (reads are not run; a write that ran keeps its answer).
    /// A single call is not limited: its answer is what the client asked for.
    public var maxBatchResponseBytes: Int
    /// A body at least this long that calls a method whose cost grows with its params
    /// (`RPCMethod.costGrowsWithParams`) runs on the dispatcher's low-priority lane. An ordinary call is far
    /// shorter; the costliest need the longest inputs the API allows (a Check's cost is its URL's length
    /// times its app's rules).
    public var lowPriorityBodyBytes: Int

    public init(
        maxBatchSize: Int = 100, maxNestingDepth: Int = 64, maxBatchResponseBytes: Int = 1 << 20,
        lowPriorityBodyBytes: Int = 2048
    ) {
        self.maxBatchSize = maxBatchSize
        self.maxNestingDepth = maxNestingDepth
        self.maxBatchResponseBytes = maxBatchResponseBytes
        self.lowPriorityBodyBytes = lowPriorityBodyBytes
    }
}

/// What the transport knows about the request that carries a JSON-RPC body, already read from its headers.
public struct RPCTransport: Sendable {
    /// The id of the HTTP request, echoed in logs and INTERNAL errors.
    public var requestID: String
    /// The bearer token of the `Authorization` header, if it carried one.
    public var bearerToken: String?
    /// When the caller stops waiting (nil: it did not say), or why its deadline header was refused (every
    /// call is then answered with that error).
    public var deadline: Result<ContinuousClock.Instant?, RPCError>
    /// The normalized `Host` header.
    public var host: String
    /// The `User-Agent` header.
    public var userAgent: String?
    /// The client's numeric IP address.
    public var remoteAddress: String

    public init(
        requestID: String, bearerToken: String? = nil,
        deadline: Result<ContinuousClock.Instant?, RPCError> = .success(nil), host: String = "",
        userAgent: String? = nil, remoteAddress: String = ""
    ) {
        self.requestID = requestID
        self.bearerToken = bearerToken
        self.deadline = deadline
        self.host = host
        self.userAgent = userAgent
        self.remoteAddress = remoteAddress
    }
}

/// The HTTP answer to a JSON-RPC body.
public enum RPCReply: Sendable, Equatable {
    /// 200 with this body.
    case json([UInt8])
    /// 204: only notifications were sent.
    case noContent
    /// 429 with this body and `Retry-After`: the caller's failed sign-ins passed the limit (`SignInLimiter`).
    case limited([UInt8], retryAfterSeconds: Int)
}

/// JSON-RPC 2.0 over a method table: parses a body (single call or batch), checks access and deadlines,
/// runs handlers and assembles the response.
///
/// The envelope is read by a byte scanner; only params are decoded, straight into each method's input
/// type. Application errors (`RPCErrorConvertible`) go out gRPC-style: `code` the gRPC number, `data.status`
/// its name, `data.details` the field violations. Other errors become INTERNAL with the request id; their
/// text goes to the observer (the server log) only.
public final class JSONRPCDispatcher: Sendable {
    let methods: [String: RPCMethod]
    let authenticator: (any Authenticator)?
    let limits: JSONRPCLimits
    let codec: JSONRPCCodec
    let observer: (any JSONRPCObserver)?
    /// The flat readers of methods whose plain calls skip `JSONDecoder`, by method name.
    let flatReaders: [String: FlatParamsReader]
    /// Where requests calling a method that `waitsOnDatabase` run (nil: on the caller's thread).
    let offload: DispatchQueue?
    /// Where long requests calling a method whose cost grows with its params run (nil: where they would
    /// otherwise).
    let lowPriority: LowPriorityLane?
    /// The params rules of the API description, checked before any handler.
    let contract: ParamsContract?
    /// Failed sign-ins per client address (nil: not limited).
    let signIns: SignInLimiter?

    /// - Parameters:
    ///   - methods: the table; a later method with the same name replaces an earlier one.
    ///   - authenticator: resolves bearer tokens; without it, only public methods can be called.
    ///   - observer: where calls are counted by method and status, and unexpected failures described.
    ///   - offload: where a request calling a method that may wait on the database runs, decided once per
    ///     request before any call runs; nil runs everything on the caller's thread.
    ///   - lowPriority: where a body of `limits.lowPriorityBodyBytes` or more calling a method whose cost grows
    ///     with its params runs; when its queue is full such a request is answered RESOURCE_EXHAUSTED.
    ///   - contract: the params rules of the methods it describes, enforced before decoding.
    ///   - signIns: limits failed sign-ins per client address (nil: no limit).
    public init(
        methods: [RPCMethod], authenticator: (any Authenticator)? = nil, limits: JSONRPCLimits = JSONRPCLimits(),
        codec: JSONRPCCodec = JSONRPCCodec(), observer: (any JSONRPCObserver)? = nil, offload: DispatchQueue? = nil,
        lowPriority: LowPriorityLane? = nil, contract: ParamsContract? = nil, signIns: SignInLimiter? = nil
    ) {
        self.signIns = signIns
        self.offload = offload
        self.lowPriority = lowPriority
        var table: [String: RPCMethod] = [:]
        for method in methods { table[method.name] = method }
        self.methods = table
        self.authenticator = authenticator
        self.limits = limits
        self.codec = codec
        self.observer = observer
        var readers: [String: FlatParamsReader] = [:]
        for method in table.values {
            if let reader = FlatParamsReader(method: method, contract: contract) { readers[method.name] = reader }
        }
        self.flatReaders = readers
        self.contract = contract
    }

    /// The names of the methods served, sorted (for the OpenRPC agreement test).
    public var methodNames: [String] { methods.keys.sorted() }

    /// The outcome of `dispatch`.
    public struct Dispatched: Sendable {
        public enum Outcome: Sendable {
            case reply(RPCReply)
            /// The answer comes through `later`: a deferred call, or a request running on the offload queue.
            /// `cancel` answers it UNAVAILABLE (the server is stopping).
            case pending(cancel: @Sendable () -> Void)
        }

        public var outcome: Outcome
        /// The methods the body called, for the request log.
        public var methods: [String]
    }

    /// Answers a body in-process, waiting for deferred calls: for tests and tools that skip HTTP.
    public func handle(_ body: [UInt8], transport: RPCTransport) -> RPCReply {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        let dispatched = dispatch(body: body, transport: transport) {
            { reply in
                box.set(reply)
                semaphore.signal()
            }
        }
        switch dispatched.outcome {
        case .reply(let reply): return reply
        case .pending:
            semaphore.wait()
            return box.get() ?? .noContent
        }
    }

    /// A body read into its calls: done once per request, before deciding where it runs.
    struct Envelope: Sendable {
        var isBatch: Bool
        var calls: [JSONRPCCall.Parsed]
        var names: [String]
    }

    /// Parses and runs a body. `later` makes the receiver of a pending request's reply (called exactly once);
    /// it is called only when the request does not answer now, so a call answered on the caller's thread
    /// builds no closure and starts no deferral.
    ///
    /// Where the calls run is decided once, here: a request that calls a method that may wait on the
    /// database runs on `offload` as a whole (its connection waits); a long one calling a method whose cost
    /// grows with its params on `lowPriority`; anything else on the caller's thread.
    public func dispatch(
        body: [UInt8], transport: RPCTransport, later: () -> @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        let envelope: Envelope
        switch read(body) {
        case .failure(let error):
            observer?.callFinished(method: "-", status: error.metricStatus)
            return Dispatched(outcome: .reply(.json(JSONRPCResponse.error(id: nil, error, codec: codec))), methods: [])
        case .success(let read): envelope = read
        }
        if let offload, envelope.names.contains(where: { methods[$0]?.waitsOnDatabase == true }) {
            let later = later()
            offload.async { [self] in
                if case .reply(let reply) = run(envelope, transport: transport, later: { later }).outcome {
                    later(reply)
                }
            }
            return pending(envelope, later)
        }
        if let lowPriority, body.count >= limits.lowPriorityBodyBytes,
            envelope.names.contains(where: { methods[$0]?.costGrowsWithParams == true })
        {
            var deliver: (@Sendable (RPCReply) -> Void)?
            // The deadline is checked when the calls start, so one that waited in the queue past it is
            // answered DEADLINE_EXCEEDED without running.
            let queued = lowPriority.submit(preparing: {
                let later = later()
                deliver = later
                return { [self] in
                    if case .reply(let reply) = run(envelope, transport: transport, later: { later }).outcome {
                        later(reply)
                    }
                }
            })
            guard queued, let deliver else {
                return Dispatched(outcome: .reply(busy(envelope)), methods: envelope.names)
            }
            return pending(envelope, deliver)
        }
        return run(envelope, transport: transport, later: later)
    }

    /// A request answered through `later`, UNAVAILABLE when the server stops first.
    private func pending(_ envelope: Envelope, _ later: @escaping @Sendable (RPCReply) -> Void) -> Dispatched {
        let codec = codec
        return Dispatched(
            outcome: .pending(cancel: {
                let error = JSONRPCError.application(.unavailable("the server is shutting down"))
                later(.json(JSONRPCResponse.error(id: nil, error, codec: codec)))
            }), methods: envelope.names)
    }

    /// The answer to a request the low-priority lane had no room for: each call RESOURCE_EXHAUSTED with its
    /// id (a notification gets nothing), nothing run.
    private func busy(_ envelope: Envelope) -> RPCReply {
        let error = RPCError.resourceExhausted("too many costly calls are waiting; retry later")
        var responses: [[UInt8]] = []
        for parsed in envelope.calls {
            switch parsed {
            case .invalid(let id, let reason):
                let invalid = JSONRPCError.invalidRequest(reason)
                observer?.callFinished(method: "-", status: invalid.metricStatus)
                responses.append(JSONRPCResponse.error(id: id, invalid, codec: codec))
            case .call(let call):
                observer?.callFinished(method: methods[call.method] == nil ? "-" : call.method, status: error.status)
                if let id = call.id {
                    responses.append(JSONRPCResponse.error(id: id, .application(error), codec: codec))
                }
            }
        }
        if responses.isEmpty { return .noContent }
        return .json(envelope.isBatch ? JSONRPCResponse.batch(responses) : responses[0])
    }

    /// The body's calls, or the protocol error that refuses the whole body.
    private func read(_ body: [UInt8]) -> Result<Envelope, JSONRPCError> {
        body.withUnsafeBufferPointer { buffer in
            guard UTF8Validation.isValid(buffer) else { return .failure(.parse()) }
            var scanner = JSONScanner(buffer, maxDepth: limits.maxNestingDepth)
            scanner.skipWhitespace()
            let isBatch = scanner.current == UInt8(ascii: "[")
            var members: [Range<Int>] = []
            do {
                if isBatch {
                    scanner.index += 1
                    scanner.skipWhitespace()
                    if scanner.current == UInt8(ascii: "]") {
                        scanner.index += 1
                    } else {
                        while true {
                            scanner.skipWhitespace()
                            let start = scanner.index
                            try scanner.skipValue(depth: 1)
                            members.append(start..<scanner.index)
                            scanner.skipWhitespace()
                            if scanner.current == UInt8(ascii: ",") {
                                scanner.index += 1
                                continue
                            }
                            try scanner.expect(UInt8(ascii: "]"))
                            break
                        }
                    }
                } else {
                    let start = scanner.index
                    try scanner.skipValue(depth: 0)
                    members.append(start..<scanner.index)
                }
                scanner.skipWhitespace()
                guard scanner.atEnd else { throw JSONScanner.Failure.syntax }
            } catch JSONScanner.Failure.tooDeep {
                return .failure(.invalidRequest("nested deeper than \(limits.maxNestingDepth) levels"))
            } catch {
                return .failure(.parse())
            }
            if isBatch && members.isEmpty { return .failure(.invalidRequest("empty batch")) }
            if members.count > limits.maxBatchSize {
                return .failure(
                    .invalidRequest("batch of \(members.count) calls exceeds the limit of \(limits.maxBatchSize)"))
            }
            let calls = members.map { JSONRPCCall.parse(buffer, body, range: $0) }
            let names: [String] = calls.compactMap { parsed in
                if case .call(let call) = parsed { return call.method }
                return nil
            }
            return .success(Envelope(isBatch: isBatch, calls: calls, names: names))
        }
    }

    private func run(
        _ envelope: Envelope, transport: RPCTransport, later: () -> @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        var session = CallSession(transport: transport)
        if !envelope.isBatch {
            return single(envelope.calls[0], names: envelope.names, session: &session, later: later)
        }
        var responses: [[UInt8]] = []
        var budget = limits.maxBatchResponseBytes
        for parsed in envelope.calls {
            if budget <= 0, case .call(let call) = parsed {
                if let refusal = overBudget(call) { responses.append(refusal) }
                continue
            }
            guard var response = run(parsed, session: &session, inBatch: true) else { continue }
            if response.count > budget, case .call(let call) = parsed, !isWrite(call.method),
                let refusal = overBudget(call)
            {
                response = refusal
            }
            budget -= response.count
            responses.append(response)
        }
        let reply: RPCReply = responses.isEmpty ? .noContent : .json(JSONRPCResponse.batch(responses))
        return Dispatched(outcome: .reply(limited(reply, session)), methods: envelope.names)
    }

    /// `names`: the envelope's, the method of the call when it is one.
    private func single(
        _ parsed: JSONRPCCall.Parsed, names: [String], session: inout CallSession,
        later: () -> @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        guard case .call(let call) = parsed, let method = methods[call.method], method.isDeferred, call.id != nil
        else {
            let response = run(parsed, session: &session, inBatch: false)
            return Dispatched(
                outcome: .reply(limited(response.map { .json($0) } ?? .noContent, session)), methods: names)
        }
        let later = later()
        let cancel = startDeferred(call, method: method, session: &session) { response in later(.json(response)) }
        return Dispatched(outcome: .pending(cancel: cancel), methods: names)
    }

    /// The reply as 429 when the request's failed sign-in was refused by the limit.
    private func limited(_ reply: RPCReply, _ session: CallSession) -> RPCReply {
        guard let seconds = session.retryAfterSeconds else { return reply }
        switch reply {
        case .json(let bytes): return .limited(bytes, retryAfterSeconds: seconds)
        case .noContent, .limited: return reply
        }
    }

    /// The answer of a batch member past the response budget (nil for a notification).
    private func overBudget(_ call: JSONRPCCall) -> [UInt8]? {
        let error = RPCError.resourceExhausted(
            "the batch's answers would exceed \(limits.maxBatchResponseBytes) bytes; send \(call.method) in a request "
                + "of its own")
        observer?.callFinished(method: methods[call.method] == nil ? "-" : call.method, status: error.status)
        guard let id = call.id else { return nil }
        return JSONRPCResponse.error(id: id, .application(error), codec: codec)
    }

    /// Methods that change state (above the first level of access): their effect has happened once they ran.
    func isWrite(_ name: String) -> Bool {
        guard let method = methods[name] else { return false }
        return method.changesState
    }

    /// Runs one parsed member; nil for a notification (no response).
    func run(_ parsed: JSONRPCCall.Parsed, session: inout CallSession, inBatch: Bool) -> [UInt8]? {
        switch parsed {
        case .invalid(let id, let reason):
            let error = JSONRPCError.invalidRequest(reason)
            observer?.callFinished(method: "-", status: error.metricStatus)
            return JSONRPCResponse.error(id: id, error, codec: codec)
        case .call(let call):
            return runCall(call, session: &session, inBatch: inBatch)
        }
    }
}

/// Holds a reply across threads for `handle`; the semaphore orders the accesses.
private final class ReplyBox: @unchecked Sendable {
    // `@unchecked Sendable`: written once before the semaphore is signalled, read after it is waited on.
    private var reply: RPCReply?
    func set(_ value: RPCReply) { reply = value }
    func get() -> RPCReply? { reply }
}
