import Foundation
import Synchronization

/// One entry of the method table: a name, who may call it, and its handler with the one encoder of its
/// result.
///
/// The engine knows no application: an application builds its methods from its own descriptions (the
/// registry's `RPCMethod(API.RoutesCreate.self) { … }`, in RegistryAPI) through these initialisers. A
/// handler runs on a transport thread or on the dispatcher's offload queue; long waits use
/// `RPCMethod.deferred`, which frees the thread.
public struct RPCMethod: Sendable {
    /// `Service.Method`.
    public let name: String
    /// The weakest access allowed to call it.
    public let access: RPCAccess
    @usableFromInline let body: Body
    /// The handler may wait on the database: a dispatcher with an `offload` queue runs requests calling it
    /// there, so transport threads (each of which serves many connections) only ever wait on memory.
    public private(set) var waitsOnDatabase = false
    /// A write: once its handler ran, its effect happened, so its success is answered even past the
    /// deadline, and a batch's answer budget never replaces its answer.
    public private(set) var changesState = false
    /// Its cost grows with its params (a Check's URL): a long request calling it runs on the dispatcher's
    /// low-priority lane, so that the costliest calls the limits allow never take CPU from the others.
    public private(set) var costGrowsWithParams = false
    /// The params members a plain call carries, readable without `JSONDecoder` (see `FlatParams`).
    let flatKeys: [String]?

    @usableFromInline
    enum Body: Sendable {
        /// Answers now. The flat values are the members of `flatKeys` when the call was plain; the closure
        /// returns nil when it cannot build the input from them (the dispatcher then checks and decodes the
        /// params in full, and calls it again without them).
        case immediate(@Sendable (RPCContext, RPCParams, [String]?) throws -> [UInt8]?)
        case deferred(@Sendable (RPCContext, RPCParams, RPCCompletion<RawJSON>) throws -> Void)
    }

    /// A method answered when its handler returns, its result written by the codec's `JSONEncoder`. Params
    /// decode into `Input` (absent params decode from `{}`); a decoding failure is answered -32602 with field
    /// violations.
    public init<Input: Decodable & Sendable, Output: Encodable>(
        name: String, access: RPCAccess, _ handler: @escaping @Sendable (RPCContext, Input) throws -> Output
    ) {
        self.init(name: name, access: access, encoder: .codec, flatParams: nil, handler)
    }

    /// A method whose result has its own encoder, and whose plain calls may skip `JSONDecoder` (`flatParams`).
    /// Every call's answer, plain or not, single or in a batch, comes from `encoder`: the one encoding of
    /// the method's result.
    ///
    /// Inlinable, so that the handler's closure is specialized for the method's types where the method is
    /// made: unspecialized, every call asked the runtime for `Optional<Input>`'s metadata and copied the input
    /// through value witnesses.
    @inlinable
    public init<Input: Decodable & Sendable, Output>(
        name: String, access: RPCAccess, encoder: RPCResultEncoder<Output>, flatParams: FlatParams<Input>? = nil,
        _ handler: @escaping @Sendable (RPCContext, Input) throws -> Output
    ) {
        self.init(
            name: name, access: access, flatKeys: flatParams?.keys,
            body: .immediate { context, params, flat in
                let input: Input
                if let flat {
                    guard let built = flatParams?.build(flat) else { return nil }
                    input = built
                } else {
                    input = try params.decode(Input.self)
                }
                return try encoder.encode(try handler(context, input), params.codec)
            })
    }

    @usableFromInline
    init(name: String, access: RPCAccess, flatKeys: [String]?, body: Body) {
        self.name = name
        self.access = access
        self.body = body
        self.flatKeys = flatKeys
    }

    /// A method that answers later, without holding a thread (a long poll such as `Associations.Watch`):
    /// the handler stores `completion` and returns; any thread calls it exactly once (later calls are
    /// ignored). Meanwhile the connection is suspended.
    ///
    /// Deferred methods are refused inside batches (FAILED_PRECONDITION for that member): a batch answers
    /// in one response, and one waiter must not hold the others. When the server stops, pending
    /// completions are answered UNAVAILABLE.
    public static func deferred<Input: Decodable & Sendable, Output: Encodable>(
        name: String, access: RPCAccess,
        _ handler: @escaping @Sendable (RPCContext, Input, RPCCompletion<Output>) throws -> Void
    ) -> RPCMethod {
        RPCMethod(
            name: name, access: access, flatKeys: nil,
            body: .deferred { context, params, raw in
                let input = try params.decode(Input.self)
                try handler(context, input, RPCCompletion<Output>(codec: params.codec, deliver: raw.deliver))
            })
    }

    /// `rpc.discover`, OpenRPC's own method: answers with the OpenRPC document, byte for byte. Public.
    public static func discover(openRPCDocument: [UInt8]) -> RPCMethod {
        let document = RawJSON(bytes: openRPCDocument)
        return RPCMethod(name: discoverName, access: .public, encoder: .raw) { (_, _: NoParams) in document }
    }

    /// The name of OpenRPC's own method.
    public static let discoverName = "rpc.discover"

    var isDeferred: Bool {
        if case .deferred = body { return true }
        return false
    }

    /// This method, marked as a write (or not).
    public func changingState(_ changes: Bool = true) -> RPCMethod {
        var method = self
        method.changesState = changes
        return method
    }

    /// This method, marked as one whose cost grows with its params (or not).
    public func growingWithParams(_ grows: Bool = true) -> RPCMethod {
        var method = self
        method.costGrowsWithParams = grows && !isDeferred
        return method
    }

    /// This method, marked as one whose handler may wait on the database.
    public func waitingOnDatabase(_ waits: Bool = true) -> RPCMethod {
        var method = self
        method.waitsOnDatabase = waits && !isDeferred
        return method
    }
}

/// The params of a method that takes none (`{}`).
public struct NoParams: Codable, Sendable {
    public init() {}
}

/// How a method's result becomes bytes: the one encoding of its answers.
public struct RPCResultEncoder<Output>: Sendable {
    @usableFromInline let encode: @Sendable (Output, JSONRPCCodec) throws -> [UInt8]

    /// The method's own writer (bytes of one JSON value).
    public init(_ write: @escaping @Sendable (Output) throws -> [UInt8]) {
        encode = { output, _ in try write(output) }
    }

    private init(encode: @escaping @Sendable (Output, JSONRPCCodec) throws -> [UInt8]) { self.encode = encode }
}

extension RPCResultEncoder where Output: Encodable {
    /// The dispatcher's `JSONEncoder` (sorted keys, unescaped slashes).
    public static var codec: RPCResultEncoder { RPCResultEncoder(encode: { try $1.encodeResult($0) }) }
}

extension RPCResultEncoder where Output == RawJSON {
    /// Bytes the handler already wrote (a stored document, a spliced table).
    public static var raw: RPCResultEncoder { RPCResultEncoder { $0.bytes } }
}

/// Reads a method's plain calls without `JSONDecoder`: when the params are an object of exactly `keys`, each
/// a plain string the OpenRPC rules admit, `build` makes the input from the values (in `keys` order), or
/// returns nil to leave the call to the full check and decoder. A faster decoder for the same method: the
/// handler and the encoder are the method's own.
public struct FlatParams<Input>: Sendable {
    public let keys: [String]
    public let build: @Sendable ([String]) -> Input?

    public init(keys: [String], build: @escaping @Sendable ([String]) -> Input?) {
        self.keys = keys
        self.build = build
    }
}

/// Finishes a deferred call. Call it exactly once, from any thread; later calls are ignored.
public struct RPCCompletion<Output: Encodable>: Sendable {
    let codec: JSONRPCCodec
    let deliver: @Sendable (Result<[UInt8], any Error>) -> Void

    /// Answers with `output`.
    public func succeed(_ output: Output) { self(.success(output)) }

    /// Answers with an error: an `RPCErrorConvertible` goes to the client as is, anything else as INTERNAL.
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

    /// For encoders other than the dispatcher's (which copies `bytes` directly): the value re-encoded.
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(AnyJSON.self, from: Data(bytes)).encode(to: encoder)
    }
}

/// Any JSON value, for `RawJSON` written by another encoder.
private enum AnyJSON: Codable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }
}

/// The raw params of one call, decoded on demand into the handler's input type.
@usableFromInline
struct RPCParams {
    let bytes: ArraySlice<UInt8>?
    @usableFromInline let codec: JSONRPCCodec

    @usableFromInline
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
