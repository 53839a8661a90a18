import Dispatch
import Foundation
import JSONBytes
import RouteCore

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

    public init(maxBatchSize: Int = 100, maxNestingDepth: Int = 64, maxBatchResponseBytes: Int = 1 << 20) {
        self.maxBatchSize = maxBatchSize
        self.maxNestingDepth = maxNestingDepth
        self.maxBatchResponseBytes = maxBatchResponseBytes
    }
}

/// What the HTTP layer knows about the request that carries a JSON-RPC body.
public struct RPCTransport: Sendable {
    /// The id of the HTTP request, echoed in logs and INTERNAL errors.
    public var requestID: String
    /// The raw `Authorization` header.
    public var authorization: String?
    /// The raw `X-Request-Timeout-Ms` header.
    public var requestTimeout: String?
    /// The normalized `Host` header.
    public var host: String
    /// The `User-Agent` header.
    public var userAgent: String?
    /// The client's numeric IP address.
    public var remoteAddress: String

    public init(
        requestID: String, authorization: String? = nil, requestTimeout: String? = nil, host: String = "",
        userAgent: String? = nil, remoteAddress: String = ""
    ) {
        self.requestID = requestID
        self.authorization = authorization
        self.requestTimeout = requestTimeout
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
}

/// JSON-RPC 2.0 over a method table: parses a body (single call or batch), checks access and deadlines,
/// runs handlers and assembles the response.
///
/// The envelope is read by a byte scanner; only params are decoded, straight into each method's input
/// type. Application errors (`RegistryError`) go out gRPC-style: `code` the gRPC number, `data.status` its
/// name, `data.details` the field violations. Other errors become INTERNAL with the request id; their text
/// goes to the server log only.
public final class JSONRPCDispatcher: Sendable {
    let methods: [String: RPCMethod]
    let authenticator: (any Authenticator)?
    let limits: JSONRPCLimits
    let codec: JSONRPCCodec
    let metrics: ServerMetrics?
    let log: RequestLog
    /// Cheaper answers for the plain calls of some methods, by method name.
    let fastPaths: [String: RPCFastPath]
    /// Where requests calling a method that `waitsOnDatabase` run (nil: on the caller's thread).
    let offload: DispatchQueue?
    /// The params rules of the API description, checked before any handler or fast path.
    let contract: ParamsContract?

    /// - Parameters:
    ///   - methods: the table; a later method with the same name replaces an earlier one.
    ///   - authenticator: resolves bearer tokens; without it, only public methods can be called.
    ///   - metrics: where calls are counted by method and status (usually the server's).
    ///   - log: where internal errors are described, keyed by request id.
    ///   - contract: the params rules of the methods it describes, enforced before decoding.
    public convenience init(
        methods: [RPCMethod], authenticator: (any Authenticator)? = nil, limits: JSONRPCLimits = JSONRPCLimits(),
        codec: JSONRPCCodec = JSONRPCCodec(), metrics: ServerMetrics? = nil, log: RequestLog = .standardError,
        contract: ParamsContract? = nil
    ) {
        self.init(
            methods: methods, authenticator: authenticator, limits: limits, codec: codec, metrics: metrics, log: log,
            fastPaths: [], contract: contract)
    }

    /// The dispatcher with `fastPaths` tried before the handlers of their methods (see `RPCFastPath`).
    init(
        methods: [RPCMethod], authenticator: (any Authenticator)?, limits: JSONRPCLimits, codec: JSONRPCCodec,
        metrics: ServerMetrics?, log: RequestLog, fastPaths: [RPCFastPath], offload: DispatchQueue? = nil,
        contract: ParamsContract? = nil
    ) {
        self.offload = offload
        var table: [String: RPCMethod] = [:]
        for method in methods { table[method.name] = method }
        self.methods = table
        self.authenticator = authenticator
        self.limits = limits
        self.codec = codec
        self.metrics = metrics
        self.log = log
        var fast: [String: RPCFastPath] = [:]
        for path in fastPaths where table[path.method] != nil {
            if let checked = path.checked(by: contract) { fast[path.method] = checked }
        }
        self.fastPaths = fast
        self.contract = contract
    }

    /// The names of the methods served, sorted (for the OpenRPC agreement test).
    public var methodNames: [String] { methods.keys.sorted() }

    /// The outcome of `dispatch`.
    struct Dispatched {
        enum Outcome {
            case reply(RPCReply)
            /// A deferred call is running; its reply comes through `later`. `cancel` answers it UNAVAILABLE.
            case pending(cancel: @Sendable () -> Void)
        }

        var outcome: Outcome
        var methods: [String]
    }

    /// Answers a body in-process, waiting for deferred calls: for tests and tools that skip HTTP.
    public func handle(_ body: [UInt8], transport: RPCTransport) -> RPCReply {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        let dispatched = dispatch(body: body, transport: transport) { reply in
            box.set(reply)
            semaphore.signal()
        }
        switch dispatched.outcome {
        case .reply(let reply): return reply
        case .pending:
            semaphore.wait()
            return box.get() ?? .noContent
        }
    }

    /// Parses and runs a body. `later` receives the reply of a deferred single call (exactly once).
    func dispatch(
        body: [UInt8], transport: RPCTransport, offloaded: Bool = false,
        later: @escaping @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        body.withUnsafeBufferPointer { buffer in
            dispatch(buffer, body, transport: transport, offloaded: offloaded, later: later)
        }
    }

    /// Runs a request that calls a database method on `offload` and answers through `later`; the
    /// cancellation (server stopping) answers UNAVAILABLE.
    private func runOffloaded(
        _ offload: DispatchQueue, _ body: [UInt8], transport: RPCTransport, names: [String],
        later: @escaping @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        offload.async { [self] in
            let dispatched = dispatch(body: body, transport: transport, offloaded: true, later: later)
            if case .reply(let reply) = dispatched.outcome { later(reply) }
        }
        let codec = codec
        return Dispatched(
            outcome: .pending(cancel: {
                let error = JSONRPCError.application(RegistryError.unavailable("the server is shutting down"))
                later(.json(JSONRPCResponse.error(id: nil, error, codec: codec)))
            }), methods: names)
    }

    private func dispatch(
        _ buffer: UnsafeBufferPointer<UInt8>, _ body: [UInt8], transport: RPCTransport, offloaded: Bool,
        later: @escaping @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        func fail(_ error: JSONRPCError) -> Dispatched {
            metrics?.callFinished(method: "-", status: error.metricStatus)
            return Dispatched(outcome: .reply(.json(JSONRPCResponse.error(id: nil, error, codec: codec))), methods: [])
        }
        guard UTF8Validation.isValid(buffer) else { return fail(.parse()) }
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
            return fail(.invalidRequest("nested deeper than \(limits.maxNestingDepth) levels"))
        } catch {
            return fail(.parse())
        }
        if isBatch && members.isEmpty { return fail(.invalidRequest("empty batch")) }
        if members.count > limits.maxBatchSize {
            return fail(.invalidRequest("batch of \(members.count) calls exceeds the limit of \(limits.maxBatchSize)"))
        }

        if let offload, !offloaded {
            let names: [String] = members.compactMap { range in
                if case .call(let call) = JSONRPCCall.parse(buffer, body, range: range) { return call.method }
                return nil
            }
            if names.contains(where: { methods[$0]?.waitsOnDatabase == true }) {
                return runOffloaded(offload, body, transport: transport, names: names, later: later)
            }
        }
        var session = CallSession(transport: transport)
        if !isBatch {
            return single(JSONRPCCall.parse(buffer, body, range: members[0]), session: &session, later: later)
        }
        var responses: [[UInt8]] = []
        var names: [String] = []
        var budget = limits.maxBatchResponseBytes
        for range in members {
            let parsed = JSONRPCCall.parse(buffer, body, range: range)
            if case .call(let call) = parsed { names.append(call.method) }
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
        return Dispatched(
            outcome: .reply(responses.isEmpty ? .noContent : .json(JSONRPCResponse.batch(responses))), methods: names)
    }

    private func single(
        _ parsed: JSONRPCCall.Parsed, session: inout CallSession, later: @escaping @Sendable (RPCReply) -> Void
    ) -> Dispatched {
        guard case .call(let call) = parsed, let method = methods[call.method], method.isDeferred, call.id != nil
        else {
            let names: [String]
            if case .call(let call) = parsed { names = [call.method] } else { names = [] }
            let response = run(parsed, session: &session, inBatch: false)
            return Dispatched(outcome: .reply(response.map { .json($0) } ?? .noContent), methods: names)
        }
        let cancel = startDeferred(call, method: method, session: &session) { response in later(.json(response)) }
        return Dispatched(outcome: .pending(cancel: cancel), methods: [call.method])
    }

    /// The answer of a batch member past the response budget (nil for a notification).
    private func overBudget(_ call: JSONRPCCall) -> [UInt8]? {
        let error = RegistryError(
            .resourceExhausted,
            "the batch's answers would exceed \(limits.maxBatchResponseBytes) bytes; send \(call.method) in a request "
                + "of its own")
        metrics?.callFinished(method: methods[call.method] == nil ? "-" : call.method, status: "RESOURCE_EXHAUSTED")
        guard let id = call.id else { return nil }
        return JSONRPCResponse.error(id: id, .application(error), codec: codec)
    }

    /// Methods that change the registry (releaser and admin): their effect has happened once they ran.
    private func isWrite(_ name: String) -> Bool {
        guard let method = methods[name] else { return false }
        return method.access >= .releaser
    }

    /// Runs one parsed member; nil for a notification (no response).
    func run(_ parsed: JSONRPCCall.Parsed, session: inout CallSession, inBatch: Bool) -> [UInt8]? {
        switch parsed {
        case .invalid(let id, let reason):
            let error = JSONRPCError.invalidRequest(reason)
            metrics?.callFinished(method: "-", status: error.metricStatus)
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
