import Foundation

/// The first outcome of each idempotent write (`write_requests`): a retry with the same request id, actor
/// and method finds it here and returns it instead of writing again (AIP-155).
public struct WriteRequestRepository: Sendable {
    public init() {}

    /// What the write of `requestID` for `actor` and `method` recorded, if that write committed.
    public func recorded(actor: String, method: String, requestID: String, in tx: Transaction) throws
        -> RecordedWrite?
    {
        try tx.query(
            prepared: """
                SELECT outcome::text AS outcome, params_sha256 FROM write_requests
                WHERE actor = \(actor) AND method = \(method) AND request_id = \(requestID)
                """
        ).first.map { row in
            RecordedWrite(
                outcome: Data(try row.string("outcome").utf8),
                paramsFingerprint: try row.optionalString("params_sha256"))
        }
    }

    /// Records the outcome of a write in the write's own transaction (with its audit entry's id and the
    /// fingerprint of the params it was sent with, when the caller gave one).
    public func record(
        actor: String, method: String, key: IdempotencyKey, outcome: SQLJSON, auditID: Int64, in tx: Transaction
    ) throws {
        try tx.query(
            prepared: """
                INSERT INTO write_requests (actor, method, request_id, outcome, audit_id, params_sha256)
                VALUES (\(actor), \(method), \(key.requestID), \(outcome)::jsonb, \(auditID), \(key.paramsFingerprint))
                """)
    }
}

/// A write's first outcome as recorded under its request id.
public struct RecordedWrite: Sendable, Hashable {
    /// The outcome (JSON) a retry answers.
    public var outcome: Data
    /// The fingerprint of the params the key was first sent with; nil for a row a server of a release before
    /// fingerprints wrote (it replays without comparing).
    public var paramsFingerprint: String?
}
