/// Where an app's link events are POSTed (`apps/{app}/webhooks/{id}`): signed batches of `link.created`,
/// `link.updated`, `link.deleted` and `link.clicked` events, delivered by one server of a fleet.
public struct Webhook: Sendable, Hashable, Codable {
    /// Drawn by the server (`wh_` and 16 hex digits); absent on create.
    public var id: String
    /// The receiver: an https URL on a public host (an admin may allow others with `serve
    /// --webhook-private-hosts`).
    public var url: String
    /// The event types sent (`WebhookEventType`); every type when absent on create.
    public var events: [String]
    /// What it is for, for people.
    public var description: String?

    public init(id: String = "", url: String, events: [String] = WebhookEventType.all, description: String? = nil) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
    }

    enum CodingKeys: String, CodingKey { case id, url, events, description }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        url = try c.decode(String.self, forKey: .url)
        events = try c.decodeIfPresent([String].self, forKey: .events) ?? WebhookEventType.all
        description = try c.decodeIfPresent(String.self, forKey: .description)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !id.isEmpty { try c.encode(id, forKey: .id) }
        try c.encode(url, forKey: .url)
        try c.encode(events, forKey: .events)
        try c.encodeIfPresent(description, forKey: .description)
    }
}

/// The events a webhook can receive.
public enum WebhookEventType {
    public static let linkCreated = "link.created"
    public static let linkUpdated = "link.updated"
    public static let linkDeleted = "link.deleted"
    /// A link's clicks since the last batch, per platform, outcome and source (written with the click flush).
    public static let linkClicked = "link.clicked"
    public static let all = [linkCreated, linkUpdated, linkDeleted, linkClicked]
}
