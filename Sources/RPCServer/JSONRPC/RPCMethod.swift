import Foundation
import RouteCore
import Synchronization

/// One entry of the method table: a method described once (`RPCMethodDescriptor`) bound to its handler.
///
/// ```swift
/// RPCMethod(API.RoutesCreate.self) { ctx, input in try service.createRoute(input.route, …) }
/// ```
/// The wire name, the access and the params type come from the descriptor only: there is no other way to
/// make a method, so the server cannot serve one that is not described (and `DispatchTableTests` holds the
/// served table to the OpenRPC document). A handler runs on a libmicrohttpd worker thread; it may block
/// briefly (a database round trip). Long waits use `RPCMethod.deferred`, which frees the thread.
public struct RPCMethod: Sendable {
    /// `Service.Method`.
    public let name: String
    /// The weakest role allowed to call it.
    public let access: Access
    let body: Body
    /// The handler may wait on the database: a dispatcher with an `offload` queue runs requests calling it
    /// there, with the connection suspended, so HTTP worker threads (each of which serves many connections)
    /// only ever wait on memory.
    public private(set) var waitsOnDatabase = false
    /// The stored properties of the input type the handler receives, read from params decoded into it: what
    /// the handler really takes, for the test that holds the table to the OpenRPC document.
    let inputFields: @Sendable (ArraySlice<UInt8>?, JSONRPCCodec) throws -> [String]

    enum Body: Sendable {
        case immediate(@Sendable (RPCContext, RPCParams) throws -> [UInt8])
        case deferred(@Sendable (RPCContext, RPCParams, RPCCompletion<RawJSON>) throws -> Void)
    }

    /// A method answered when its handler returns. Params decode into `Method.Input` (absent params decode
    /// from `{}`); a decoding failure is answered -32602 with field violations.
    public init<Method: RPCMethodDescriptor>(
        _ method: Method.Type, _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> Method.Output
    ) {
        self.init(method) { context, input, codec in try codec.encodeResult(try handler(context, input)) }
    }

    /// A method whose handler writes `Method.Output`'s JSON itself (`CanOpen.GetTable` splices a stored
    /// table's canonical bytes instead of decoding and re-encoding thousands of rules). The bytes must be
    /// what encoding the output would give.
    public static func encoded<Method: RPCMethodDescriptor>(
        _ method: Method.Type, _ handler: @escaping @Sendable (RPCContext, Method.Input) throws -> RawJSON
    ) -> RPCMethod {
        RPCMethod(method) { context, input, _ in try handler(context, input).bytes }
    }

    /// The one place a descriptor becomes a method: name, access and input type all come from `Method`.
    /// Methods that change the registry (releaser and admin) also refuse unknown fields (`UnknownFields`).
    private init<Method: RPCMethodDescriptor>(
        _ method: Method.Type,
        answer: @escaping @Sendable (RPCContext, Method.Input, JSONRPCCodec) throws -> [UInt8]
    ) {
        let refusesUnknownFields = Method.access >= .releaser
        self.init(
            Method.self,
            body: .immediate { context, params in
                let input = try params.decode(Method.Input.self)
                if refusesUnknownFields {
                    try UnknownFields.check(input, params: params.bytes, codec: params.codec)
                }
                return try answer(context, input, params.codec)
            })
    }

    private init<Method: RPCMethodDescriptor>(_ method: Method.Type, body: Body) {
        self.name = Method.name
        self.access = Method.access
        self.body = body
        self.inputFields = { bytes, codec in
            let input = try RPCParams(bytes: bytes, codec: codec).decode(Method.Input.self)
            return Mirror(reflecting: input).children.compactMap(\.label).map(Self.wireName)
        }
    }

    /// The param a Swift property decodes: the same name, but for a trailing `ID`, which Swift spells as
    /// one acronym and the API as a word (`requestID` ↔ `requestId`, by `API.RequestID.Member`'s coding key).
    static func wireName(_ label: String) -> String {
        label.hasSuffix("ID") ? label.dropLast(2) + "Id" : label
    }

    /// A method that answers later, without holding a worker thread (a long poll such as
    /// `Associations.Watch`): the handler stores `completion` and returns; any thread calls it exactly once
    /// (later calls are ignored). Meanwhile the connection is suspended.
    ///
    /// Deferred methods are refused inside batches (FAILED_PRECONDITION for that member): a batch answers
    /// in one response, and one waiter must not hold the others. When the server stops, pending
    /// completions are answered UNAVAILABLE.
    public static func deferred<Method: RPCMethodDescriptor>(
        _ method: Method.Type,
        _ handler: @escaping @Sendable (RPCContext, Method.Input, RPCCompletion<Method.Output>) throws -> Void
    ) -> RPCMethod {
        RPCMethod(
            Method.self,
            body: .deferred { context, params, raw in
                let input = try params.decode(Method.Input.self)
                try handler(context, input, RPCCompletion<Method.Output>(codec: params.codec, deliver: raw.deliver))
            })
    }

    /// `rpc.discover`: answers with the OpenRPC document, byte for byte. Public.
    public static func discover(openRPCDocument: [UInt8]) -> RPCMethod {
        let document = RawJSON(bytes: openRPCDocument)
        return encoded(RPCDiscover.self) { _, _ in document }
    }

    var isDeferred: Bool {
        if case .deferred = body { return true }
        return false
    }

    /// This method, marked as one whose handler may wait on the database.
    public func waitingOnDatabase(_ waits: Bool = true) -> RPCMethod {
        var method = self
        method.waitsOnDatabase = waits && !isDeferred
        return method
    }
}

/// Finishes a deferred call. Call it exactly once, from any thread; later calls are ignored.
public struct RPCCompletion<Output: Encodable>: Sendable {
    let codec: JSONRPCCodec
    let deliver: @Sendable (Result<[UInt8], any Error>) -> Void

    /// Answers with `output`.
    public func succeed(_ output: Output) { self(.success(output)) }

    /// Answers with an error: a `RegistryError` goes to the client as is, anything else as INTERNAL.
    public func fail(_ error: any Error) { self(.failure(error)) }

    /// Answers with `result`.
    public func callAsFunction(_ result: Result<Output, any Error>) {
        switch result {
        case .success(let output):
            do { deliver(.success(try codec.encodeResult(output))) } catch { deliver(.failure(error)) }
        case .failure(let error): deliver(.failure(error))
        }
    }
}

/// A result that is already JSON (the OpenRPC document, a stored AASA): written into the response as is.
public struct RawJSON: Sendable, Encodable {
    /// One complete JSON value.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// For encoders other than the dispatcher's (which copies `bytes` directly).
    public func encode(to encoder: any Encoder) throws {
        try JSONValue(json: Data(bytes)).encode(to: encoder)
    }
}

/// The raw params of one call, decoded on demand into the handler's input type.
struct RPCParams {
    let bytes: ArraySlice<UInt8>?
    let codec: JSONRPCCodec

    func decode<Input: Decodable>(_ type: Input.Type) throws -> Input {
        do {
            if let bytes { return try codec.decoder.decode(Input.self, from: Data(bytes)) }
            return try codec.decoder.decode(Input.self, from: Data("{}".utf8))
        } catch let error as DecodingError {
            throw InvalidParams(error: error)
        }
    }
}

/// The params did not decode into the method's input type (answered -32602).
struct InvalidParams: Error {
    let error: DecodingError
}

/// The result did not encode (answered -32603).
struct ResultEncodingFailed: Error {
    let error: any Error
}

/// The encoder and decoder shared by every call: made once, used concurrently (neither is mutated after
/// `init`).
public final class JSONRPCCodec: Sendable {
    let encoder: JSONEncoder
    let decoder: JSONDecoder

    /// - Parameters:
    ///   - encoder: for results; defaults to sorted keys and unescaped slashes (deterministic bytes).
    ///   - decoder: for params.
    public init(encoder: JSONEncoder? = nil, decoder: JSONDecoder = JSONDecoder()) {
        if let encoder {
            self.encoder = encoder
        } else {
            let made = JSONEncoder()
            made.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            self.encoder = made
        }
        self.decoder = decoder
    }

    func encodeResult<Output: Encodable>(_ output: Output) throws -> [UInt8] {
        if let raw = output as? RawJSON { return raw.bytes }
        do { return Array(try encoder.encode(output)) } catch { throw ResultEncodingFailed(error: error) }
    }
}

/// A deferred call's completion, handed out once: whoever takes it first (the handler, the deadline timer or
/// shutdown) answers, and the others find nothing, so nothing keeps an answered call alive.
final class PendingCompletion: Sendable {
    private let completion: Mutex<RPCCompletion<RawJSON>?>

    init(_ completion: RPCCompletion<RawJSON>) { self.completion = Mutex(completion) }

    func take() -> RPCCompletion<RawJSON>? { completion.withLock { $0.take() } }
}

/// Answers a completion at most once, whichever thread calls first.
final class CompletionGate: Sendable {
    private let done = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}
