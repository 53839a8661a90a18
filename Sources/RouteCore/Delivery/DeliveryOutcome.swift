/// How one fetch of a delivered document ended: an observation's outcome, as stored and reported.
public enum DeliveryOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// A JSON document (matched to a revision of ours, or not).
    case served
    /// 304 to a conditional request: the document served before still is.
    case unchanged
    /// 404: the service holds no copy.
    case notFound = "not_found"
    /// Another status.
    case httpError = "http_error"
    /// No complete answer before the deadline.
    case timeout
    /// The body exceeded the size limit.
    case tooLarge = "too_large"
    /// The body is not strict JSON (iOS ignores such a file whole).
    case invalidJSON = "invalid_json"
    /// Connection, TLS or protocol failure.
    case networkError = "network_error"

    /// Whether the observation says what the service serves (a document, or that it has none); the others
    /// leave it unknown, and the last known state stands.
    public var tellsContent: Bool { self == .served || self == .unchanged || self == .notFound }

    /// Whether the service answered at all (with content, or with content we cannot use): the schedule
    /// backs off only after the others (timeouts, 5xx, network failures).
    public var isAnswer: Bool { tellsContent || self == .invalidJSON || self == .tooLarge }
}
