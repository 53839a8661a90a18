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

    private let service: RegistryService
    private let hosts = Mutex(Hosts())
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

    /// `GET /{code}`.
    func respond(code: String, _ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        guard let stored = service.links.link(domain: domain, code: code), stored.isLive(at: Date()) else {
            count(domain, code, visitor, outcome: "not_found")
            return notFound(appName: nil)
        }
        return answer(stored.link, app: stored.app, shortURL: "https://\(domain)/\(code)", visitor, request, code: code)
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
        return answer(link, app: app, shortURL: "https://\(domain)/?\(query)", visitor, request, code: "-")
    }

    private func answer(
        _ link: ShortLink, app: String, shortURL: String, _ visitor: LinkVisitor, _ request: HTTPRequest, code: String
    ) -> HTTPResponse {
        let snapshot = service.snapshot
        let owner = snapshot.registry.apps.first { $0.id == app }
        let policy = owner?.fallback ?? FallbackPolicy()
        // A URL that came back from a fallback stays on the web, whatever the visitor.
        let fromFallback = request.query.contains("\(policy.queryItem)=")
        switch visitor {
        case .crawler:
            count(link.domain, code, visitor, outcome: "crawler")
            return page(LinkPage.crawler(content(link, app: owner, shortURL: shortURL, visitor: visitor)))
        case .desktop:
            count(link.domain, code, visitor, outcome: "redirect")
            return redirect(link.desktopUrl ?? link.target)
        case .ios, .android:
            if link.skipLanding == true && !fromFallback {
                count(link.domain, code, visitor, outcome: "redirect")
                return redirect(link.target)
            }
            count(link.domain, code, visitor, outcome: "landing")
            return page(LinkPage.landing(content(link, app: owner, shortURL: shortURL, visitor: visitor)))
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
        service.clicks.count(
            ClickKey(domain: domain, code: code, day: Self.today(), platform: visitor.rawValue, outcome: outcome))
    }

    private static func today() -> String {
        let day = Int(Date().timeIntervalSince1970 / 86_400)
        let (y, m, d) = civil(fromDays: day)
        return String(format: "%04d-%02d-%02d", y, m, d)
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm): no
    /// Calendar or formatter on the click path.
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
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
