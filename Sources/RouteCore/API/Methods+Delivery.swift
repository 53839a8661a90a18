extension API {
    /// What Apple's CDN and Google's Digital Asset Links API serve for each domain, as the delivery watch last
    /// observed it, against the registry's current revision.
    public enum AssociationsDelivery: RPCMethodDescriptor {
        public static let name = "Associations.Delivery"
        public static let access = Access.public
        public static let traits = MethodTraits.read(from: .database)
        /// Public, like the documents it compares: what a CDN serves is no team's secret.
        public static func scope(_ _: Input) -> CallScope { .unscoped }
        public struct Input: Codable, Sendable {
            /// Only this domain (default: every domain with a generated document).
            public var host: String?
            /// Only this kind of document (default: both).
            public var kind: DocumentKind?
            public init(host: String? = nil, kind: DocumentKind? = nil) {
                self.host = host
                self.kind = kind
            }
        }
        public struct Output: Codable, Sendable {
            public var documents: [DeliveryStatus]
            public init(documents: [DeliveryStatus]) { self.documents = documents }
        }
    }
}

/// One domain's document as a delivery service serves it, compared with the registry's current revision.
public struct DeliveryStatus: Codable, Sendable, Hashable {
    /// What the service's copy is.
    public enum Served: String, Codable, Sendable, Hashable {
        /// One of our revisions (`servedRevision`).
        case revision
        /// A document we never published (a hand-written file, another tool's).
        case unpublished
        /// The service holds no copy (404).
        case none
        /// Not observed yet, or every observation failed.
        case unknown
    }

    /// One app's routes in a delivered AASA: those the served copy's rules claim, and those the registry's
    /// current revision claims that the served copy does not yet.
    public struct Claims: Codable, Sendable, Hashable {
        /// The registry's app whose iOS app IDs the rules name.
        public var app: String
        /// Route ids the served copy's opening rules come from, in document order (empty when the service
        /// serves none of our revisions, no copy, or is not observed yet).
        public var routes: [String]
        /// Route ids the current revision claims and the served copy does not: pending at the service.
        public var pending: [String]

        public init(app: String, routes: [String], pending: [String]) {
            self.app = app
            self.routes = routes
            self.pending = pending
        }
    }

    public var host: String
    public var kind: DocumentKind
    /// `apple-cdn` (AASA) or `google-digital-asset-links` (assetlinks).
    public var service: String
    public var currentRevision: Int
    public var currentRevisionTime: String
    public var served: Served
    /// The revision the service serves, when it is one of ours.
    public var servedRevision: Int?
    /// Since when the service serves this copy (RFC 3339, UTC).
    public var servingSince: String?
    /// 0 when the service serves the current revision, N when N newer revisions wait, -1 when it serves
    /// none of ours (or nothing); absent while unknown.
    public var revisionsBehind: Int?
    /// Seconds since the oldest revision the service has not shown was created (the current one's when it
    /// serves none of ours); 0 when current; absent while unknown.
    public var secondsBehind: Double?
    public var lastObservationTime: String?
    /// The last observation's outcome: `served`, `unchanged`, `not_found`, `http_error`, `timeout`,
    /// `too_large`, `invalid_json`, `network_error`.
    public var lastOutcome: String?
    public var lastHttpStatus: Int?
    public var lastError: String?
    /// AASA only, per app: which routes the served copy claims and which the current revision adds. Absent
    /// for assetlinks (Google lists statements, not rules).
    public var claimedRoutes: [Claims]?

    public init(
        host: String, kind: DocumentKind, service: String, currentRevision: Int, currentRevisionTime: String,
        served: Served, servedRevision: Int? = nil, servingSince: String? = nil, revisionsBehind: Int? = nil,
        secondsBehind: Double? = nil, lastObservationTime: String? = nil, lastOutcome: String? = nil,
        lastHttpStatus: Int? = nil, lastError: String? = nil, claimedRoutes: [Claims]? = nil
    ) {
        self.host = host
        self.kind = kind
        self.service = service
        self.currentRevision = currentRevision
        self.currentRevisionTime = currentRevisionTime
        self.served = served
        self.servedRevision = servedRevision
        self.servingSince = servingSince
        self.revisionsBehind = revisionsBehind
        self.secondsBehind = secondsBehind
        self.lastObservationTime = lastObservationTime
        self.lastOutcome = lastOutcome
        self.lastHttpStatus = lastHttpStatus
        self.lastError = lastError
        self.claimedRoutes = claimedRoutes
    }
}
