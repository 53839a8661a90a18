extension API {
    /// The `requestId` param of write methods: an idempotency key (AIP-155). A write retried with the same
    /// key, by the same caller (token), of the same method, returns the outcome of the first attempt that
    /// committed, instead of writing again; a first attempt that failed recorded nothing, so its retry runs.
    /// The key is scoped to caller and method, and params are not compared: reuse a key only for a retry.
    /// Every write but `Tokens.Create` takes one (replaying that would mean storing the token's secret).
    /// Write methods take it through their input, `WriteRequest`; Swift spells it `requestID`, as it spells
    /// every acronym, and `Member` is the one place that gives it its wire name.
    public enum RequestID {
        /// The longest key accepted.
        public static let maxLength = 64

        /// The methods that take a `requestId`: the idempotent writes (`RPCMethodDescriptor.isIdempotent`),
        /// those whose input is a `WriteRequest`, so the descriptors are the one list of them.
        public static let methods = Set(API.all.filter { $0.isIdempotent }.map { $0.name })

        /// Checks a key: 1 to 64 characters of `A–Z a–z 0–9 . _ : -` (a UUID fits).
        public static func validate(_ key: String?) throws(RegistryError) -> String? {
            guard let key else { return nil }
            let allowed = key.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array(".:_-".utf8).contains(byte)
            }
            guard !key.isEmpty, key.utf8.count <= maxLength, allowed else {
                throw RegistryError.invalidArgument(
                    field: "requestId", "must be 1 to \(maxLength) characters of A-Z a-z 0-9 . _ : -")
            }
            return key
        }

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
