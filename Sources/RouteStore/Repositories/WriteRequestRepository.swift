import Foundation

/// The first outcome of each idempotent write (`write_requests`): a retry with the same request id, actor
/// and method finds it here and returns it instead of writing again (AIP-155).
public struct WriteRequestRepository: Sendable {
    public init() {}

    /// The recorded outcome (JSON) of `requestID` for `actor` and `method`, if that write committed.
    public func outcome(actor: String, method: String, requestID: String, in tx: Transaction) throws -> Data? {
        try tx.query(
            prepared: """
                SELECT outcome::text AS outcome FROM write_requests
                WHERE actor = \(actor) AND method = \(method) AND request_id = \(requestID)
                """
        ).first.map { Data(try $0.string("outcome").utf8) }
    }

    /// Records the outcome of a write in the write's own transaction (with its audit entry's id).
    public func record(
        actor: String, method: String, requestID: String, outcome: SQLJSON, auditID: Int64, in tx: Transaction
    ) throws {
        try tx.query(
            prepared: """
                INSERT INTO write_requests (actor, method, request_id, outcome, audit_id)
                VALUES (\(actor), \(method), \(requestID), \(outcome)::jsonb, \(auditID))
                """)
    }
}
