/// What makes a write idempotent (AIP-155): the caller's `requestId`, and the fingerprint of the params it was
/// sent with (`WriteRequest.paramsFingerprint()`), so a key reused for another call is refused rather than
/// answered with the first call's outcome.
public struct IdempotencyKey: Sendable, Hashable {
    /// The caller's `requestId`.
    public var requestID: String
    /// Lower-hex SHA-256 of the params; nil compares nothing (a caller that cannot say, such as a test of the
    /// store alone), and the first outcome is replayed as before fingerprints.
    public var paramsFingerprint: String?

    public init(_ requestID: String, paramsFingerprint: String? = nil) {
        self.requestID = requestID
        self.paramsFingerprint = paramsFingerprint
    }
}
