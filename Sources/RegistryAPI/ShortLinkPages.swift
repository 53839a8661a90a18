import Foundation
import HTTPServing
import RegistryService
import RouteCore
import RouteStore
import Synchronization

/// What a link domain answers on `GET /{code}` (and FDL-style long links on `GET /?link=…`), from memory:
/// crawlers get a preview page, phones the landing page (or the target itself when the link skips it),
/// desktop browsers a 302 to the desktop URL or the target; an unknown, expired or deleted code a 404
/// page, never a redirect. Every click is counted (`ClickCounter`), by platform and outcome only.
final class ShortLinkPages: Sendable {
    /// What clicks read of the snapshot, kept per snapshot `stamp`.
    private struct Hosts {
        var stamp: UInt64 = .max
        var links: Set<String> = []
        /// Each app's fallback marker (the query item that keeps a visitor on the web).
        var fallbackItems: [String: String] = [:]
    }

    /// Prepared answers by link and visitor class, for the snapshot `stamp` (the app's name, store id and
    /// fallback marker go into them) and each link's change id.
    private struct Answers {
        var stamp: UInt64 = .max
        /// By `key(slot:visitor:fromFallback:)`: an integer, so a click hashes no string for it.
        var prepared: [UInt64: (changeID: Int64, answer: PreparedResponse, outcome: String)] = [:]
    }

    /// Most answers kept; past it the cache starts over (it only saves rendering).
    static let maxPrepared = 50_000

    private let service: RegistryService
    private let hosts = Mutex(Hosts())
    private let answers = Mutex(Answers())
    static let hostClass = HostClass("links")

    init(service: RegistryService) { self.service = service }

    /// `links` for the registry's link domains; `.any` for every other host.
    func classify(_ host: String) -> HostClass {
        hosts { $0.links.contains(host) } ? Self.hostClass : .any
    }

    /// Reads what clicks need of the current snapshot, made again once per snapshot.
    private func hosts<T>(_ read: (Hosts) -> T) -> T {
        let stamp = service.snapshots.installCount
        if let known = hosts.withLock({ $0.stamp == stamp ? read($0) : nil }) { return known }
        let registry = service.snapshot.registry
        let made = Hosts(
            stamp: stamp, links: Set(registry.domains.filter(\.isLinkDomain).map { $0.host.lowercased() }),
            fallbackItems: Dictionary(registry.apps.map { ($0.id, $0.fallback.queryItem) }) { first, _ in first })
        hosts.withLock { $0 = made }
        return read(made)
    }

    /// `GET /{code}`: the link's prepared answer for this visitor class, rendered on the first click after
    /// the link or its app changed. A click takes the index's lock, the answers' lock and a counter's shard.
    func respond(code: String, _ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        guard let hit = service.links.hit(domain: domain, code: code), hit.isLive(at: Date()) else {
            count(domain, code, visitor, outcome: "not_found")
            return notFound(appName: nil)
        }
        let fromFallback = (visitor == .ios || visitor == .android) && isFallback(request, app: hit.app)
        let key = Self.key(slot: hit.slot, visitor: visitor, fromFallback: fromFallback)
        let stamp = service.snapshots.installCount
        let kept = answers.withLock { answers -> (answer: PreparedResponse, outcome: String)? in
            guard answers.stamp == stamp, let kept = answers.prepared[key], kept.changeID == hit.changeID else {
                return nil
            }
            return (kept.answer, kept.outcome)
        }
        if let kept {
            count(domain, code, visitor, outcome: kept.outcome)
            return kept.answer.response
        }
        // The index changed between the two reads only when the link was written meanwhile: the
        // answer is for the newer write, prepared under the change id it was made from.
        guard let stored = service.links.link(domain: domain, code: code), stored.isLive(at: Date()) else {
            count(domain, code, visitor, outcome: "not_found")
            return notFound(appName: nil)
        }
        let outcome = Self.outcome(stored.link, visitor, fromFallback: fromFallback)
        count(domain, code, visitor, outcome: outcome)
        let response = answer(
            stored.link, app: stored.app, shortURL: "https://\(domain)/\(code)", visitor, fromFallback: fromFallback,
            snapshot: service.snapshot)
        guard
            let prepared = PreparedResponse(
                status: response.status, body: response.body, contentType: response.contentType,
                headers: response.headers)
        else { return response }
        answers.withLock { answers in
            if answers.stamp != stamp || answers.prepared.count >= Self.maxPrepared {
                answers = Answers(stamp: stamp)
            }
            answers.prepared[Self.key(slot: stored.slot, visitor: visitor, fromFallback: fromFallback)] = (
                stored.changeID, prepared, outcome
            )
        }
        return prepared.response
    }

    private static func key(slot: Int32, visitor: LinkVisitor, fromFallback: Bool) -> UInt64 {
        let visitorBits: UInt64 =
            switch visitor {
            case .crawler: 0
            case .ios: 1
            case .android: 2
            case .desktop: 3
            }
        return UInt64(UInt32(bitPattern: slot)) << 3 | visitorBits << 1 | (fromFallback ? 1 : 0)
    }

    /// Whether the URL carries the app's fallback marker: it came back from a fallback and stays on the web.
    private func isFallback(_ request: HTTPRequest, app: String) -> Bool {
        let item = hosts { $0.fallbackItems[app] } ?? FallbackPolicy().queryItem
        return request.queryValue(item) != nil
    }

    /// `GET /?link=…`: a Firebase Dynamic Links long link, for a `link` on the app's own domains only.
    func respondLongLink(_ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        let query = request.query
        guard let long = FDLLongLink(query: query), let app = appOfLinkDomain(domain),
            let link = try? longLinkAsLink(long, domain: domain, app: app)
        else {
            count(domain, "-", visitor, outcome: "not_found")
            return notFound(appName: nil)
        }
        let snapshot = service.snapshot
        let fromFallback = (visitor == .ios || visitor == .android) && isFallback(request, app: app)
        count(domain, "-", visitor, outcome: Self.outcome(link, visitor, fromFallback: fromFallback))
        return answer(
            link, app: app, shortURL: "https://\(domain)/?\(query)", visitor, fromFallback: fromFallback,
            snapshot: snapshot)
    }

    /// What a click counts as: the answer `answer` gives, named.
    static func outcome(_ link: ShortLink, _ visitor: LinkVisitor, fromFallback: Bool) -> String {
        switch visitor {
        case .crawler: "crawler"
        case .desktop: "redirect"
        case .ios, .android: link.skipLanding == true && !fromFallback ? "redirect" : "landing"
        }
    }

    /// What `visitor` is answered for `link`.
    private func answer(
        _ link: ShortLink, app: String, shortURL: String, _ visitor: LinkVisitor, fromFallback: Bool,
        snapshot: Snapshot
    ) -> HTTPResponse {
        let owner = snapshot.registry.apps.first { $0.id == app }
        switch Self.outcome(link, visitor, fromFallback: fromFallback) {
        case "crawler": return page(LinkPage.crawler(content(link, app: owner, shortURL: shortURL, visitor: visitor)))
        case "redirect": return redirect(visitor == .desktop ? link.desktopUrl ?? link.target : link.target)
        default: return page(LinkPage.landing(content(link, app: owner, shortURL: shortURL, visitor: visitor)))
        }
    }

    private func content(_ link: ShortLink, app: App?, shortURL: String, visitor: LinkVisitor) -> LinkPageContent {
        let policy = app?.fallback ?? FallbackPolicy()
        let platform: Platform? = visitor == .ios ? .ios : visitor == .android ? .android : nil
        let referrer = "link=\(link.domain)/\(link.code)"
        var store: String?
        if platform == .ios, let id = app?.ios?.appStoreId {
            store = StoreLinks.appStore(appStoreId: id, campaign: "\(link.domain)/\(link.code)")
        } else if platform == .android, let package = app?.android?.packageName {
            store = StoreLinks.playStore(packageName: package, referrer: referrer)
        }
        let web = platform.flatMap { link.options($0)?.fallbackUrl } ?? FallbackURL.make(link.target, policy: policy)
        return LinkPageContent(
            shortURL: shortURL, title: link.preview?.title, description: link.preview?.description,
            imageURL: link.preview?.imageUrl, appName: app?.displayName ?? app?.id ?? "the app", openURL: link.target,
            storeURL: store, webURL: web)
    }

    /// The long link as a link of the domain's app: its `link` and fallbacks checked like any link's.
    private func longLinkAsLink(_ long: FDLLongLink, domain: String, app: String) throws -> ShortLink {
        guard let target = long.link else { throw RegistryError.invalidArgument(field: "link", "is required") }
        let link = ShortLink(
            domain: domain, code: "", target: target, desktopUrl: long.ofl,
            preview: long.st == nil && long.sd == nil && long.si == nil
                ? nil : LinkPreview(title: long.st, description: long.sd, imageUrl: long.si),
            ios: long.imv == nil && long.ifl == nil
                ? nil : LinkPlatformOptions(minVersion: long.imv, fallbackUrl: long.ifl),
            android: long.amv == nil && long.afl == nil
                ? nil : LinkPlatformOptions(minVersion: long.amv, fallbackUrl: long.afl),
            skipLanding: long.efr ? true : nil)
        return try RegistryService.checkedLink(
            link, app: app, in: service.snapshot.registry, field: "link", creating: true)
    }

    private func appOfLinkDomain(_ host: String) -> String? {
        service.snapshot.registry.domains.first { $0.host == host && $0.isLinkDomain }?.apps.first
    }

    private func count(_ domain: String, _ code: String, _ visitor: LinkVisitor, outcome: String) {
        service.clicks.count(domain: domain, code: code, platform: visitor.rawValue, outcome: outcome)
    }

    private func page(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200, body: body, contentType: "text/html; charset=utf-8",
            headers: Self.pageHeaders + [("Cache-Control", "no-store")])
    }

    private func notFound(appName: String?) -> HTTPResponse {
        HTTPResponse(
            status: 404, body: LinkPage.notFound(appName: appName), contentType: "text/html; charset=utf-8",
            headers: Self.pageHeaders)
    }

    private func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    static let pageHeaders: [(String, String)] = [
        ("Content-Security-Policy", LinkPage.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]
}
