/// One product, e.g. `badoo`, with everything the generated files and decisions need to know about it.
/// Resource name: `apps/{id}`.
public struct App: Sendable, Hashable, Codable {
    /// Lower-case identifier, `[a-z][a-z0-9-]{0,62}`.
    public var id: String
    /// A name for people.
    public var displayName: String?
    /// iOS identity: app IDs as `TEAMID.bundle.id`.
    public var ios: IOSConfig?
    /// Android identity: package name and signing certificate fingerprints.
    public var android: AndroidConfig?
    /// Custom URL schemes the app answers (`badoo` for `badoo://offer/1`), lower-case, without `://`.
    public var schemes: [String]
    /// How a version that cannot open a link falls back to the browser.
    public var fallback: FallbackPolicy
    /// Default matching options for this app's routes (rule > app > domain).
    public var defaults: MatchDefaults?
    /// The host patterns a token scoped to this app may create domains under (`rt.example.com`,
    /// `*.rt.example.com`: every host below it). Only an admin for every app sets them (`HostPattern`).
    /// nil or empty: none, so a scoped admin creates no domain for the app.
    public var hosts: [String]?

    public init(
        id: String, displayName: String? = nil, ios: IOSConfig? = nil, android: AndroidConfig? = nil,
        schemes: [String] = [], fallback: FallbackPolicy = FallbackPolicy(), defaults: MatchDefaults? = nil,
        hosts: [String]? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.ios = ios
        self.android = android
        self.schemes = schemes
        self.fallback = fallback
        self.defaults = defaults
        self.hosts = hosts
    }

    /// Whether the app has a side on `platform` (app IDs for iOS, a package for Android). Without one, the
    /// platform's well-known file never names the app, so the OS sends it no web links there.
    public func hasSide(on platform: Platform) -> Bool {
        switch platform {
        case .ios: ios != nil
        case .android: android != nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, displayName, ios, android, schemes, fallback, defaults, hosts
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        ios = try c.decodeIfPresent(IOSConfig.self, forKey: .ios)
        android = try c.decodeIfPresent(AndroidConfig.self, forKey: .android)
        schemes = try c.decodeIfPresent([String].self, forKey: .schemes) ?? []
        fallback = try c.decodeIfPresent(FallbackPolicy.self, forKey: .fallback) ?? FallbackPolicy()
        defaults = try c.decodeIfPresent(MatchDefaults.self, forKey: .defaults)
        hosts = try c.decodeIfPresent([String].self, forKey: .hosts)
    }
}

/// The iOS side of an app: the app IDs an AASA names, and optional extra AASA sections.
public struct IOSConfig: Sendable, Hashable, Codable {
    /// `TEAMID.bundle.id` (team ID: 10 upper-case letters or digits).
    public var appIds: [String]
    /// Also list the app IDs under `webcredentials` (password autofill).
    public var webcredentials: Bool?
    /// App Clip app IDs to list under `appclips`.
    public var appClips: [String]?
    /// The numeric App Store id (`https://apps.apple.com/app/id{appStoreId}`), for the store button of a
    /// short link's landing page.
    public var appStoreId: String?
    /// The team's App Store Connect provider token (`pt`): with it, the App Store links of short links carry
    /// `pt` beside their campaign (`ct`), which App Analytics needs to attribute the campaign at all.
    public var appStoreProviderToken: String?

    public init(
        appIds: [String], webcredentials: Bool? = nil, appClips: [String]? = nil, appStoreId: String? = nil,
        appStoreProviderToken: String? = nil
    ) {
        self.appIds = appIds
        self.webcredentials = webcredentials
        self.appClips = appClips
        self.appStoreId = appStoreId
        self.appStoreProviderToken = appStoreProviderToken
    }
}

/// The Android side of an app: what `assetlinks.json` declares.
public struct AndroidConfig: Sendable, Hashable, Codable {
    /// The application ID, e.g. `com.badoo.mobile`.
    public var packageName: String
    /// SHA-256 fingerprints of the signing certificates, as 32 colon-separated upper-case hex pairs.
    public var sha256CertFingerprints: [String]

    public init(packageName: String, sha256CertFingerprints: [String]) {
        self.packageName = packageName
        self.sha256CertFingerprints = sha256CertFingerprints
    }
}

/// Matching defaults (Apple's `defaults` dictionary): a rule's own setting wins over these.
public struct MatchDefaults: Sendable, Hashable, Codable {
    public var caseSensitive: Bool?
    public var percentEncoded: Bool?

    public init(caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }
}
