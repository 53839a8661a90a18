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
    private struct Hosts {
        var stamp: UInt64 = .max
        var links: Set<String> = []
    }

    /// Prepared answers by link and visitor class, for the snapshot `stamp` (the app's name, store id and
    /// fallback marker go into them) and each link's change id.
    private struct Answers {
        struct Key: Hashable {
            var domain: String
            var code: String
            var visitor: LinkVisitor
            var fromFallback: Bool
        }

        var stamp: UInt64 = .max
        var prepared: [Key: (changeID: Int64, answer: PreparedResponse)] = [:]
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
        let stamp = service.snapshots.installCount
        let known = hosts.withLock { $0.stamp == stamp ? $0.links : nil }
        let links =
            known
            ?? {
                let made = Set(service.snapshot.registry.domains.filter(\.isLinkDomain).map { $0.host.lowercased() })
                hosts.withLock { $0 = Hosts(stamp: stamp, links: made) }
                return made
            }()
        return links.contains(host) ? Self.hostClass : .any
    }

    /// `GET /{code}`: the link's prepared answer for this visitor class, rendered on the first click after
    /// the link or its app changed.
    func respond(code: String, _ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        guard let stored = service.links.link(domain: domain, code: code), stored.isLive(at: Date()) else {
            count(domain, code, visitor, outcome: "not_found")
            return notFound(appName: nil)
        }
        let snapshot = service.snapshot
        let fromFallback = (visitor == .ios || visitor == .android) && isFallback(request, app: stored.app, snapshot)
        let key = Answers.Key(domain: domain, code: code, visitor: visitor, fromFallback: fromFallback)
        let stamp = service.snapshots.installCount
        let kept = answers.withLock { answers -> PreparedResponse? in
            guard answers.stamp == stamp, let kept = answers.prepared[key], kept.changeID == stored.changeID else {
                return nil
            }
            return kept.answer
        }
        count(domain, code, visitor, outcome: Self.outcome(stored.link, visitor, fromFallback: fromFallback))
        if let kept { return kept.response }
        let response = answer(
            stored.link, app: stored.app, shortURL: "https://\(domain)/\(code)", visitor, fromFallback: fromFallback,
            snapshot: snapshot)
        guard
            let prepared = PreparedResponse(
                status: response.status, body: response.body, contentType: response.contentType,
                headers: response.headers)
        else { return response }
        answers.withLock { answers in
            if answers.stamp != stamp || answers.prepared.count >= Self.maxPrepared {
                answers = Answers(stamp: stamp)
            }
            answers.prepared[key] = (stored.changeID, prepared)
        }
        return prepared.response
    }

    /// Whether the URL carries the app's fallback marker: it came back from a fallback and stays on the web.
    private func isFallback(_ request: HTTPRequest, app: String, _ snapshot: Snapshot) -> Bool {
        let policy = snapshot.registry.apps.first { $0.id == app }?.fallback ?? FallbackPolicy()
        return request.queryValue(policy.queryItem) != nil
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
        let fromFallback = (visitor == .ios || visitor == .android) && isFallback(request, app: app, snapshot)
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
