/// Webhooks: an app's link events POSTed, signed, to a receiver of its team's.
extension API {
    /// A webhook as the API shows it.
    public struct WebhookView: Codable, Sendable, Hashable {
        public var webhook: Webhook
        public var app: String
        /// `apps/{app}/webhooks/{id}`.
        public var name: String
        public var createdBy: String
        public var createTime: String
        /// The signing secret (`whsec_…`): only in `Webhooks.Create`'s answer, never again.
        public var secret: String?
        /// Deliveries failed in a row (0: the last one succeeded, or none was tried).
        public var failures: Int
        /// When the next attempt is due after failures (RFC 3339); absent when none waits.
        public var nextAttemptTime: String?

        public init(
            webhook: Webhook, app: String, name: String, createdBy: String, createTime: String, secret: String? = nil,
            failures: Int = 0, nextAttemptTime: String? = nil
        ) {
            self.webhook = webhook
            self.app = app
            self.name = name
            self.createdBy = createdBy
            self.createTime = createTime
            self.secret = secret
            self.failures = failures
            self.nextAttemptTime = nextAttemptTime
        }

        enum Keys: String, CodingKey { case app, name, createdBy, createTime, secret, failures, nextAttemptTime }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            webhook = try Webhook(from: decoder)
            app = try c.decode(String.self, forKey: .app)
            name = try c.decode(String.self, forKey: .name)
            createdBy = try c.decode(String.self, forKey: .createdBy)
            createTime = try c.decode(String.self, forKey: .createTime)
            secret = try c.decodeIfPresent(String.self, forKey: .secret)
            failures = try c.decodeIfPresent(Int.self, forKey: .failures) ?? 0
            nextAttemptTime = try c.decodeIfPresent(String.self, forKey: .nextAttemptTime)
        }

        /// Flat, as resources are: the webhook's fields, then these.
        public func encode(to encoder: any Encoder) throws {
            try webhook.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(app, forKey: .app)
            try c.encode(name, forKey: .name)
            try c.encode(createdBy, forKey: .createdBy)
            try c.encode(createTime, forKey: .createTime)
            try c.encodeIfPresent(secret, forKey: .secret)
            try c.encode(failures, forKey: .failures)
            try c.encodeIfPresent(nextAttemptTime, forKey: .nextAttemptTime)
        }
    }

    public enum WebhooksCreate: RPCMethodDescriptor {
        public static let name = "Webhooks.Create"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        /// Webhooks per app.
        public static let maxPerApp = 10
        public struct Params: Codable, Sendable {
            public var app: String
            public var webhook: Webhook
            public init(app: String, webhook: Webhook) {
                self.app = app
                self.webhook = webhook
            }
        }
        public typealias Input = WriteRequest<Params>
        public typealias Output = WebhookView
    }

    /// Which webhook: its app and id.
    public struct WebhookRef: Codable, Sendable, Hashable {
        public var app: String
        public var id: String
        public init(app: String, id: String) {
            self.app = app
            self.id = id
        }
    }

    public enum WebhooksList: RPCMethodDescriptor {
        public static let name = "Webhooks.List"
        public static let access = Access.releaser
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public struct Input: Codable, Sendable {
            public var app: String
            public init(app: String) { self.app = app }
        }
        public struct Output: Codable, Sendable {
            public var webhooks: [WebhookView]
            public init(webhooks: [WebhookView]) { self.webhooks = webhooks }
        }
    }

    public enum WebhooksDelete: RPCMethodDescriptor {
        public static let name = "Webhooks.Delete"
        public static let access = Access.releaser
        public static let traits = MethodTraits.write(changesSnapshot: false)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Params = WebhookRef
        public typealias Input = WriteRequest<Params>
        public typealias Output = Empty
    }

    public enum WebhooksDeliveries: RPCMethodDescriptor {
        public static let name = "Webhooks.Deliveries"
        public static let access = Access.releaser
        public static let traits = MethodTraits.read(from: .database)
        public static func scope(_ input: Input) -> CallScope { .app(input.app) }
        public typealias Input = WebhookRef
        /// One POST to the receiver.
        public struct Delivery: Codable, Sendable, Hashable {
            public var time: String
            /// How many events it carried.
            public var events: Int
            /// The receiver's HTTP status; absent when none came (`error` says why).
            public var status: Int?
            public var error: String?
            public var milliseconds: Int
            public init(time: String, events: Int, status: Int?, error: String?, milliseconds: Int) {
                self.time = time
                self.events = events
                self.status = status
                self.error = error
                self.milliseconds = milliseconds
            }
        }
        public struct Output: Codable, Sendable {
            /// The latest deliveries, newest first (at most `kept`).
            public var deliveries: [Delivery]
            public init(deliveries: [Delivery]) { self.deliveries = deliveries }
        }
        /// Deliveries kept per webhook.
        public static let kept = 100
    }
}
