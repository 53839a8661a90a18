/// A short link on a link domain (`https://go.badoo.com/summer`): where it sends each visitor, and what it
/// shows them on the way. Resource name: `domains/{host}/links/{code}`.
///
/// Every URL it holds is a destination a person is sent to, so each is checked when the link is written
/// (`LinkDestinations`): the app's own domains, its store pages, or hosts an admin allowed.
public struct ShortLink: Sendable, Hashable, Codable {
    /// The link domain (`go.badoo.com`), one of the app's domains marked `links`; absent on create: the
    /// app's first link domain.
    public var domain: String
    /// The path segment after the domain: at least 6 characters from `ShortLinkCode.alphabet`, or a custom
    /// code (`[A-Za-z0-9_-]{1,64}`). Absent on create: the server draws one.
    public var code: String
    /// The deep link it opens: a URL on one of the app's own domains.
    public var target: String
    /// Where desktop browsers go instead of `target`.
    public var desktopUrl: String?
    /// What chat apps and social networks show.
    public var preview: LinkPreview?
    /// Per-platform overrides.
    public var ios: LinkPlatformOptions?
    public var android: LinkPlatformOptions?
    /// When it stops working (RFC 3339); after it, the link answers 404.
    public var expiresAt: String?
    /// Phones skip the landing page and go straight to the target (FDL's `efr=1`).
    public var skipLanding: Bool?
    /// The campaign added to every web destination and store link (never to the deep link itself).
    public var utm: LinkCampaign?
    /// Labels to group links by (`Links.List` filters by one): at most `maxTags`, each matching `tagPattern`.
    public var tags: [String]?
    /// Switched off: answers 404 like an expired link until switched on again; nothing else about it changes.
    public var disabled: Bool?
    /// It stops (404, like an expired link) once people clicked it this many times; bots do not count. Exact
    /// on one server; a fleet may let through one flush interval's clicks of the other servers beyond it.
    public var maxClicks: Int?

    /// The most tags a link carries.
    public static let maxTags = 20
    /// What a tag may be: 1 to 64 of letters, digits and `_ - . :`.
    public static let tagPattern = "^[A-Za-z0-9_.:-]{1,64}$"

    public init(
        domain: String, code: String = "", target: String, desktopUrl: String? = nil, preview: LinkPreview? = nil,
        ios: LinkPlatformOptions? = nil, android: LinkPlatformOptions? = nil, expiresAt: String? = nil,
        skipLanding: Bool? = nil, utm: LinkCampaign? = nil, tags: [String]? = nil, disabled: Bool? = nil,
        maxClicks: Int? = nil
    ) {
        self.maxClicks = maxClicks
        self.domain = domain
        self.code = code
        self.target = target
        self.desktopUrl = desktopUrl
        self.preview = preview
        self.ios = ios
        self.android = android
        self.expiresAt = expiresAt
        self.skipLanding = skipLanding
        self.utm = utm
        self.tags = tags
        self.disabled = disabled
    }

    enum CodingKeys: String, CodingKey {
        case domain, code, target, desktopUrl, preview, ios, android, expiresAt, skipLanding, utm, tags, disabled
        case maxClicks
    }

    /// `domain` and `code` may be absent on create (the app's link domain, a drawn code): they decode as "".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        domain = try c.decodeIfPresent(String.self, forKey: .domain) ?? ""
        code = try c.decodeIfPresent(String.self, forKey: .code) ?? ""
        target = try c.decode(String.self, forKey: .target)
        desktopUrl = try c.decodeIfPresent(String.self, forKey: .desktopUrl)
        preview = try c.decodeIfPresent(LinkPreview.self, forKey: .preview)
        ios = try c.decodeIfPresent(LinkPlatformOptions.self, forKey: .ios)
        android = try c.decodeIfPresent(LinkPlatformOptions.self, forKey: .android)
        expiresAt = try c.decodeIfPresent(String.self, forKey: .expiresAt)
        skipLanding = try c.decodeIfPresent(Bool.self, forKey: .skipLanding)
        utm = try c.decodeIfPresent(LinkCampaign.self, forKey: .utm)
        tags = try c.decodeIfPresent([String].self, forKey: .tags)
        disabled = try c.decodeIfPresent(Bool.self, forKey: .disabled)
        maxClicks = try c.decodeIfPresent(Int.self, forKey: .maxClicks)
    }

    /// An empty `domain` or `code` (not chosen yet) is left out, as it decodes.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !domain.isEmpty { try c.encode(domain, forKey: .domain) }
        if !code.isEmpty { try c.encode(code, forKey: .code) }
        try c.encode(target, forKey: .target)
        try c.encodeIfPresent(desktopUrl, forKey: .desktopUrl)
        try c.encodeIfPresent(preview, forKey: .preview)
        try c.encodeIfPresent(ios, forKey: .ios)
        try c.encodeIfPresent(android, forKey: .android)
        try c.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try c.encodeIfPresent(skipLanding, forKey: .skipLanding)
        try c.encodeIfPresent(utm, forKey: .utm)
        try c.encodeIfPresent(tags, forKey: .tags)
        try c.encodeIfPresent(disabled, forKey: .disabled)
        try c.encodeIfPresent(maxClicks, forKey: .maxClicks)
    }

    /// Whether the tag matches `tagPattern`.
    public static func isValidTag(_ tag: String) -> Bool {
        (1...64).contains(tag.utf8.count)
            && tag.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
                    UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// The options of `platform`.
    public func options(_ platform: Platform) -> LinkPlatformOptions? {
        switch platform {
        case .ios: ios
        case .android: android
        }
    }
}

/// A link's social preview: Open Graph and Twitter card values.
public struct LinkPreview: Sendable, Hashable, Codable {
    public var title: String?
    public var description: String?
    /// An https image URL.
    public var imageUrl: String?

    public init(title: String? = nil, description: String? = nil, imageUrl: String? = nil) {
        self.title = title
        self.description = description
        self.imageUrl = imageUrl
    }
}

/// What a link does on one platform beyond the registry's own answer.
public struct LinkPlatformOptions: Sendable, Hashable, Codable {
    /// The lowest app version the link asks for; the effective minimum is the later of this and the target
    /// route's `since`.
    public var minVersion: String?
    /// Where a visitor without a version that can open the target goes instead of the landing page's web
    /// button (FDL's `ifl`/`afl`).
    public var fallbackUrl: String?

    public init(minVersion: String? = nil, fallbackUrl: String? = nil) {
        self.minVersion = minVersion
        self.fallbackUrl = fallbackUrl
    }
}
