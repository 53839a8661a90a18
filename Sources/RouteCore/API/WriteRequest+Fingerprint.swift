import Foundation

extension WriteRequest {
    /// The fingerprint of the params a `requestId` is sent with: the lower-hex SHA-256 of the method's params
    /// (`requestId` itself left out) as canonical JSON (`CanonicalJSON`: sorted keys, no whitespace). The server
    /// records it with a write's first outcome and refuses a later call with the same key but another
    /// fingerprint, instead of answering a different call with that outcome.
    ///
    /// It is computed from the params as decoded, so key order, spacing and escapes do not count. Servers of
    /// different releases compare each other's fingerprints, so a param added later must be left out of the
    /// encoding when absent (an optional, as every param is), or a retry across the upgrade would read as
    /// another call.
    public func paramsFingerprint() throws -> String {
        SHA256.hex(try CanonicalJSON.encode(params))
    }
}
