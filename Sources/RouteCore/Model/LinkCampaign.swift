/// A link's campaign: the five UTM parameters analytics tools read (Google Analytics, Matomo, Plausible...).
///
/// They are added to every web destination a visitor is sent to (the desktop 302, the landing page's web button,
/// a platform's fallback URL) and passed to the stores the way each store reads attribution (App Store `ct`,
/// Play `referrer`); never to the deep link that opens the app, whose path and query the app's routes match.
public struct LinkCampaign: Sendable, Hashable, Codable {
    /// `utm_source`: who sends the traffic (`newsletter`, `instagram`).
    public var source: String?
    /// `utm_medium`: the kind of channel (`email`, `social`, `qr`).
    public var medium: String?
    /// `utm_campaign`: the campaign's name (`summer-sale`); also the App Store campaign token, and what
    /// `Links.List` filters by.
    public var campaign: String?
    /// `utm_term`: the paid keyword.
    public var term: String?
    /// `utm_content`: which of several links to the same place.
    public var content: String?

    public init(
        source: String? = nil, medium: String? = nil, campaign: String? = nil, term: String? = nil,
        content: String? = nil
    ) {
        self.source = source
        self.medium = medium
        self.campaign = campaign
        self.term = term
        self.content = content
    }

    /// The most characters of one value: analytics tools cut longer ones anyway, and each goes into a URL.
    public static let maxValueLength = 200

    /// The parameters set, in the conventional order, as (`utm_source`, value) pairs.
    public var parameters: [(name: String, value: String)] {
        [
            ("utm_source", source), ("utm_medium", medium), ("utm_campaign", campaign), ("utm_term", term),
            ("utm_content", content),
        ]
        .compactMap { name, value in value.map { (name, $0) } }
    }

    /// Whether no parameter is set (such a campaign is stored as none).
    public var isEmpty: Bool { parameters.isEmpty }

    /// The field at fault and why, for the first value that is empty, too long or holds a control character;
    /// nil when every value is acceptable.
    public func refusal() -> (field: String, reason: String)? {
        let fields: [(String, String?)] = [
            ("source", source), ("medium", medium), ("campaign", campaign), ("term", term), ("content", content),
        ]
        for (field, value) in fields {
            guard let value else { continue }
            if value.isEmpty { return (field, "must not be empty (leave it out instead)") }
            if value.count > Self.maxValueLength {
                return (field, "is longer than \(Self.maxValueLength) characters")
            }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return (field, "must not hold control characters")
            }
        }
        return nil
    }
}
