import Foundation
import RouteMatching

/// The app's canOpen table, kept current and answering locally: the piece an iOS app uses to decide,
/// inside `application(_:continue:restorationHandler:)` or `onOpenURL`, whether *this* version can handle
/// a universal link or must send it to the browser.
///
/// - `decide(_:)` is synchronous, local and thread-safe: no network, ever.
/// - The table comes from, in order of preference: the last table fetched from the registry (memory,
///   then the cache file on disk), or a table bundled into the app at build time. A cached or bundled
///   table is used only if it was made for exactly this app, platform and version, so an upgraded app
///   never decides with its previous version's table.
/// - `refresh()` revalidates with `ifNoneMatch` (cheap when nothing changed); `startAutoRefresh()` does
///   so at once (app start) and then every `refreshInterval`, and, on iOS, when the app returns to the
///   foreground with a stale table.
///
/// The store is `Observable` (where the Observation module exists: iOS 17, macOS 14, Linux): SwiftUI views
/// reading `status` or `table` update when a refresh brings a new table or confirms the one in use.
///
/// With no table at all (nothing bundled, never fetched), `decide` answers `open_in_browser` with reason
/// `no_route` and a fallback URL: the website can show every link, while an app version that may not
/// know the route could only show a dead end, and the fallback marker keeps iOS from handing the link
/// straight back to the app. Bundle a table at build time so this never happens.
public final class CanOpenStore: Sendable {
    /// Where the table in use came from.
    public enum Source: String, Sendable, Hashable {
        /// No table: every decision is the conservative fallback.
        case none
        /// The table bundled into the app at build time.
        case bundled
        /// The cache file written after an earlier fetch.
        case disk
        /// Fetched from the registry by this process.
        case server
    }

    /// A snapshot of the store's state, for diagnostics and tests.
    public struct Status: Sendable, Hashable {
        /// Where the table in use came from.
        public var source: Source
        /// The ETag of the table in use.
        public var etag: String?
        /// When the registry last confirmed or replaced the table.
        public var lastChecked: Date?
    }

    /// The app ID in the registry (`badoo`).
    public let app: String
    /// The platform tables are fetched for.
    public let platform: Platform
    /// The running app's version; nil when none was given and the main bundle has no valid
    /// `CFBundleShortVersionString` (`versionProblem` says why): the store then never loads or fetches a
    /// table, every decision is the no-table fallback, and `refresh()` throws the problem.
    public let version: Version?
    /// Why `version` is nil.
    public let versionProblem: CanOpenStoreError?
    /// Seconds between scheduled revalidations.
    public let refreshInterval: TimeInterval
    /// The most `open(_:from:)` waits for the registry to resolve a short link, in seconds; past it the short
    /// link opens in the browser (its landing page) unless a cached resolution answers.
    public let shortLinkTimeout: TimeInterval

    let client: RPCClient
    let cacheFile: URL?
    /// Resolved short links, in memory and beside the table's cache file.
    let shortLinks: ShortLinkCache
    /// The marker used for fallback URLs while no table (which carries the app's real policy) is known.
    let defaultFallback: FallbackPolicy
    let state: Locked<State>
    /// An `ObservationRegistrar` where the Observation module is available (a stored property cannot be
    /// of a type newer than the deployment target, so it is kept as `Any`).
    let observation: (any Sendable)?

    struct State: Sendable {
        var compiled: CompiledCanOpenTable?
        var etag: String?
        var source: Source = .none
        var lastChecked: Date?
        var inFlight: Task<RefreshOutcome, any Error>?
        var autoRefresh: Task<Void, Never>?
    }

    /// A store for `app`, loading the cached or bundled table at once (a small synchronous file read, so
    /// the first `decide` already has a table).
    ///
    /// - Parameters:
    ///   - client: How to reach the registry (public methods only: no token needed).
    ///   - version: The running version; nil reads `CFBundleShortVersionString` of the main bundle.
    ///   - cachesDirectory: Where to keep the last fetched table, e.g. the app's caches directory; nil
    ///     keeps it in memory only.
    ///   - bundledTableURL: A table bundled at build time (`Bundle.main.url(forResource: "CanOpenTable",
    ///     withExtension: "json")`), used until the registry has been reached once.
    ///   - refreshInterval: Seconds between scheduled revalidations.
    ///   - defaultFallback: The fallback marker used while no table is known; the app's real policy comes
    ///     with its table.
    ///   - shortLinkTimeout: The deadline of a short link's resolution (`Links.Resolve`), in seconds.
    ///   - shortLinkCacheLifetime: How long a resolved short link is used without asking again, in seconds;
    ///     an older one is still used when the registry cannot be reached.
    ///
    /// Never throws: a store for an unknown version (nil `version` and no valid bundle version) decides
    /// with the no-table fallback and reports `versionProblem`, so an app can create its store in a
    /// property initializer without `try!`.
    public init(
        client: RPCClient, app: String, platform: Platform = .ios, version: Version? = nil,
        cachesDirectory: URL?, bundledTableURL: URL? = nil, refreshInterval: TimeInterval = 3600,
        defaultFallback: FallbackPolicy = FallbackPolicy(), shortLinkTimeout: TimeInterval = 3,
        shortLinkCacheLifetime: TimeInterval = 86400
    ) {
        let version = version ?? Self.bundleVersion()
        self.version = version
        versionProblem =
            version == nil
            ? CanOpenStoreError.unknownVersion(
                Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String) : nil
        observation = Self.makeRegistrar()
        self.client = client
        self.app = app
        self.platform = platform
        self.refreshInterval = refreshInterval
        self.defaultFallback = defaultFallback
        self.cacheFile = cachesDirectory?.appendingPathComponent(
            CanOpenTableFile.cacheFileName(app: app, platform: platform))
        self.shortLinkTimeout = shortLinkTimeout
        shortLinks = ShortLinkCache(
            file: cachesDirectory?.appendingPathComponent(ShortLinkCache.fileName(app: app, platform: platform)),
            lifetime: shortLinkCacheLifetime)
        var initial = State()
        guard let version else {
            state = Locked(initial)
            return
        }
        // The cache is newer than the bundle: it was fetched after this version was built.
        if let cacheFile, let file = CanOpenTableFile.read(cacheFile),
            file.matches(app: app, platform: platform, version: version)
        {
            initial.compiled = CompiledCanOpenTable(file.table)
            initial.etag = file.etag
            initial.source = .disk
        } else if let bundledTableURL, let file = CanOpenTableFile.read(bundledTableURL),
            file.matches(app: app, platform: platform, version: version)
        {
            initial.compiled = CompiledCanOpenTable(file.table)
            initial.etag = file.etag
            initial.source = .bundled
        }
        state = Locked(initial)
    }

    deinit {
        state.withLock { $0.autoRefresh?.cancel() }
    }

    /// The version of the main bundle (`CFBundleShortVersionString`), if it is a valid version.
    public static func bundleVersion(_ bundle: Bundle = .main) -> Version? {
        guard let text = bundle.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String else {
            return nil
        }
        return try? Version(text)
    }

    /// Where the table in use came from, its ETag and when it was last confirmed.
    public var status: Status {
        observeAccess(\.status)
        return state.withLock { Status(source: $0.source, etag: $0.etag, lastChecked: $0.lastChecked) }
    }

    /// The table in use, if any.
    public var table: CanOpenTable? {
        observeAccess(\.table)
        return state.withLock { $0.compiled?.table }
    }

    /// What this app version should do with `url`: decided locally from the table in use, identical to
    /// the registry's `CanOpen.Check` for that table. Synchronous and safe from any thread.
    public func decide(_ url: URL) -> Decision { decide(url.absoluteString) }

    /// `decide(_:)` for a URL given as text (as received, before any normalisation).
    public func decide(_ url: String) -> Decision {
        // Copy the compiled table out so the lock is held for a pointer copy, not a match.
        guard let compiled = state.withLock({ $0.compiled }) else {
            let isWeb = LinkURL(url).map { LinkURL.isWebScheme($0.scheme) } ?? false
            return Decision(
                decision: .openInBrowser, reason: .noRoute,
                fallbackUrl: isWeb ? FallbackURL.make(url, policy: defaultFallback) : nil)
        }
        return compiled.decide(url: url)
    }

    /// The URL to open in the browser instead of handling `url` in the app: the decision's fallback URL
    /// (`url` plus the app's fallback marker, so iOS does not send it straight back into the app; for a
    /// custom-scheme link, the route's web equivalent). For a link that already carries the marker, the
    /// link itself. Nil when there is no web page to go to (a custom-scheme link without a web fallback).
    public func fallbackURL(for url: URL) -> URL? {
        let decision = decide(url)
        if let fallback = decision.fallbackUrl { return URL(string: fallback) }
        if decision.reason == .fallbackMarker { return url }
        guard let scheme = url.scheme?.lowercased(), LinkURL.isWebScheme(scheme) else { return nil }
        let policy = state.withLock { $0.compiled?.table.fallback } ?? defaultFallback
        return URL(string: FallbackURL.make(url.absoluteString, policy: policy))
    }
}

/// Why a `CanOpenStore` could not be made.
public enum CanOpenStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No version was given and the main bundle's `CFBundleShortVersionString` (the associated text, if
    /// any) is not a version.
    case unknownVersion(String?)

    public var description: String {
        switch self {
        case .unknownVersion(let text?): "CFBundleShortVersionString \"\(text)\" is not a version"
        case .unknownVersion(nil): "no version given and the main bundle has no CFBundleShortVersionString"
        }
    }
}
