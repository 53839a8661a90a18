extension API {
    /// The `requestId` param of write methods: an idempotency key (AIP-155). A write retried with the same
    /// key, by the same caller (token), of the same method, returns the outcome of the first attempt that
    /// committed, instead of writing again; a first attempt that failed recorded nothing, so its retry runs.
    /// The key is scoped to caller and method, and holds the params it was first sent with (their fingerprint,
    /// `WriteRequest.paramsFingerprint()`): the same key with other params is refused INVALID_ARGUMENT naming
    /// `requestId`, and nothing is written. A key is for retrying one call, never for another.
    /// Every write but `Tokens.Create` takes one (replaying that would mean storing the token's secret).
    /// Write methods take it through their input, `WriteRequest`; Swift spells it `requestID`, as it spells
    /// every acronym, and `Member` is the one place that gives it its wire name.
    public enum RequestID {
        /// The methods that take a `requestId`: the idempotent writes (`RPCMethodDescriptor.isIdempotent`),
        /// those whose input is a `WriteRequest`, so the descriptors are the one list of them. What a key may
        /// hold (1 to 64 of `A–Z a–z 0–9 . _ : -`) is the document's `RequestId` schema alone, checked before
        /// any handler.
        public static let methods = Set(API.all.filter { $0.isIdempotent }.map { $0.name })

        /// The key as the one member it adds to a write's params, `requestId`: `WriteRequest`'s other half.
        public struct Member: Codable, Sendable, Hashable {
            public var requestID: String?

            public init(_ requestID: String?) { self.requestID = requestID }

            enum CodingKeys: String, CodingKey {
                case requestID = "requestId"
            }
        }
    }
}
