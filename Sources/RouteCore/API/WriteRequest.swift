/// The params of a write that takes an idempotency key: the method's own params and `requestId`, side by
/// side in one flat params object (`{"app": …, "etag": …, "requestId": …}`), so the key is declared, coded
/// and documented once (`API.RequestID`) and each write method declares only its own params.
///
/// The method's params read through (`input.app`); `requestID` is the key, `params` the rest.
@dynamicMemberLookup
public struct WriteRequest<Params: Codable & Sendable>: FlatCodable, Sendable {
    public var params: Params
    /// The idempotency key (`API.RequestID`): a retry with the same key, by the same caller, of the same
    /// method returns the first outcome instead of writing again.
    public var requestID: String?

    public init(_ params: Params, requestID: String? = nil) {
        self.params = params
        self.requestID = requestID
    }

    public subscript<Value>(dynamicMember field: KeyPath<Params, Value>) -> Value { params[keyPath: field] }

    /// The key first: it is read (and refused) before the method's params, as it was when each input
    /// declared it first.
    public var halves: (API.RequestID.Member, Params) { (API.RequestID.Member(requestID), params) }
    public init(halves: (API.RequestID.Member, Params)) { self.init(halves.1, requestID: halves.0.requestID) }
}

extension WriteRequest: Equatable where Params: Equatable {}
extension WriteRequest: Hashable where Params: Hashable {}

/// Reflection sees `requestID` beside the method's own params (`FlatCodable.customMirror`).
extension WriteRequest: CustomReflectable {}

/// What every `WriteRequest` is, whatever its params: how a method's input type says that it takes a
/// `requestId` (`API.RequestID.methods`).
public protocol IdempotentInput {
    /// The idempotency key (`API.RequestID`).
    var requestID: String? { get }
    /// The fingerprint of the params sent with the key (`WriteRequest.paramsFingerprint()`).
    func paramsFingerprint() throws -> String
}

extension WriteRequest: IdempotentInput {}

extension RPCMethodDescriptor {
    /// Whether the method takes a `requestId`: its input is a `WriteRequest`.
    public static var takesRequestID: Bool { Input.self is any IdempotentInput.Type }
}
