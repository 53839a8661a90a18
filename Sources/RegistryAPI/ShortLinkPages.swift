import Foundation
import HTTPServing
import RegistryService
import RouteCore
import RouteStore
import ThreadShards

/// What a link domain answers on `GET /{code}` (and FDL-style long links on `GET /?link=…`), from memory:
/// crawlers get a preview page, phones the landing page (or the target itself when the link skips it),
/// desktop browsers a 302 to the desktop URL or the target; an unknown, expired or deleted code a 404
/// page, never a redirect. Every click on a link is counted (`ClickCounter`), by platform and outcome only;
/// a visit that finds no link is a miss, counted per domain, day and why (never by the code typed).
final class ShortLinkPages: Sendable {
    /// A click's answer as prepared for one visitor class: the response, how it is counted, and until when
    /// the link sends anyone anywhere.
    private struct Kept: Sendable {
        var answer: PreparedResponse
        var tally: ClickCounter.Tally
        /// Seconds since 1970 when the link stops working; infinity when it does not.
        var expires: Double
        /// The link's click cap, checked on every click by a person (`ClickCaps`).
        var maxClicks: Int?
    }

    private struct AnswerKey: Hashable, Sendable {
        var host: String
        var code: String
        /// `variant(visitor:fromFallback:)`.
        var variant: UInt8
    }

    /// Most answers a thread keeps; past it its cache starts over (it only saves rendering). With eight
    /// shards, at most 64k answers in all.
    static let maxPrepared = 8_192

    private let service: RegistryService
    /// Prepared answers, per request thread, good while neither the snapshot (the app's name, store id and
    /// fallback marker go into them) nor any link changed: a click takes no lock another core takes.
    private let answers = VersionedMemo<AnswerKey, Kept, Version>(initial: Version(), limit: maxPrepared)
    /// Each app's fallback marker (the query item that keeps a visitor on the web), per request thread and
    /// snapshot.
    private let fallbackItems = VersionedMemo<String, String, UInt64>(initial: 0)

    init(service: RegistryService) { self.service = service }

    /// The query item that marks a visitor back from `app`'s fallback, read from the snapshot once per thread.
    private func fallbackItem(app: String) -> String {
        let stamp = service.snapshots.installCount
        if let kept = fallbackItems.value(app, version: stamp) { return kept }
        let item =
            service.snapshot.registry.apps.first { $0.id == app }?.fallback.queryItem ?? FallbackPolicy().queryItem
        fallbackItems.keep(item, app, version: stamp)
        return item
    }

    /// `GET /{code}`: the link's prepared answer for this visitor class, rendered on the thread's first click
    /// after the link or the snapshot changed. A click answered from the thread's cache reads two atomics and
    /// takes the thread's own lock and a click counter's shard.
    func respond(code: String, _ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        let now = Date()
        let version = Version(snapshot: service.snapshots.installCount, links: service.links.version)
        let mobile = visitor == .ios || visitor == .android
        // Crawlers and desktop browsers never come back from a fallback; a phone's answer depends on the
        // app's marker in the query, so its key says which.
        let fromFallback = mobile && request.hasQuery && isFallback(request, domain: domain, code: code)
        // An app's own browser gets its own landing page (hint, `intent:` URL): part of the key too.
        let inApp = mobile ? LinkInAppBrowser(userAgent: request.header("User-Agent")) : nil
        // A scan of the link's QR code carries `?qr=1`: the same answer, counted as its own source.
        let scanned =
            request.hasQuery && ShortLinkURL.isScan(queryValue: request.queryValue(ShortLinkURL.scanQueryItem))
        let key = AnswerKey(
            host: domain, code: code,
            variant: Self.variant(visitor, fromFallback: fromFallback, scanned: scanned, inApp: inApp))
        if let kept = answers.value(key, version: version), now.timeIntervalSince1970 < kept.expires {
            if usedUp(kept.maxClicks, domain, code, visitor, at: now) { return notFound(appName: nil) }
            service.clicks.count(kept.tally, at: now)
            return kept.answer.response
        }
        let found = service.links.link(domain: domain, code: code)
        guard let stored = found, stored.isLive(at: now) else {
            service.clicks.countMiss(domain: domain, Self.miss(found), at: now)
            return notFound(appName: nil)
        }
        if usedUp(stored.link.maxClicks, domain, code, visitor, at: now) { return notFound(appName: nil) }
        let decided = LinkAnswer(
            stored.link, app: app(stored.app, in: service.snapshot),
            shortURL: ShortLinkURL.short(domain: domain, code: code),
            visitor: visitor, fromFallback: fromFallback, inApp: inApp)
        let source = scanned ? ShortLinkURL.scanQueryItem : ClickKey.linkSource
        count(domain, code, visitor, outcome: decided.outcome, source: source)
        let response = render(decided)
        guard
            let prepared = PreparedResponse(
                status: response.status, body: response.body, contentType: response.contentType,
                headers: response.headers),
            let tally = service.clicks.tally(
                domain: domain, code: code, platform: visitor.rawValue, outcome: decided.outcome.rawValue,
                source: source)
        else { return response }
        let fresh = Kept(
            answer: prepared, tally: tally, expires: stored.expiresAt?.timeIntervalSince1970 ?? .infinity,
            maxClicks: stored.link.maxClicks)
        // Kept under the versions read before the link was: a change since then is a newer version.
        answers.keep(fresh, key, version: version)
        return prepared.response
    }

    /// Takes a person's click from a capped link: true (counted as an `expired` miss) when the cap was reached. A
    /// link used up answers as an expired one; bots neither use it up nor are refused.
    private func usedUp(_ maximum: Int?, _ domain: String, _ code: String, _ visitor: LinkVisitor, at now: Date)
        -> Bool
    {
        guard let maximum, visitor != .crawler, !service.caps.take(domain: domain, code: code, maximum: maximum)
        else { return false }
        service.clicks.countMiss(domain: domain, .expired, at: now)
        return true
    }

    /// Why a visit found no live link.
    private static func miss(_ found: IndexedLink?) -> ClickCounter.Miss {
        guard let found else { return .unknown }
        if found.deleted { return .deleted }
        return found.link.disabled == true ? .disabled : .expired
    }

    private static func variant(
        _ visitor: LinkVisitor, fromFallback: Bool, scanned: Bool, inApp: LinkInAppBrowser?
    ) -> UInt8 {
        let visitorBits: UInt8 =
            switch visitor {
            case .crawler: 0
            case .ios: 1
            case .android: 2
            case .desktop: 3
            }
        // `LinkInAppBrowser`'s raw values are 1...15, so they fit the high four bits.
        return (inApp?.rawValue ?? 0) << 4 | (scanned ? 8 : 0) | visitorBits << 1 | (fromFallback ? 1 : 0)
    }

    /// Whether a phone's request carries the fallback marker of the link's app (it came back from a fallback
    /// and stays on the web). The app is the link's; an unknown code has none, and its marker is the default.
    private func isFallback(_ request: HTTPRequest, domain: String, code: String) -> Bool {
        guard let app = service.links.hit(domain: domain, code: code)?.app else {
            return request.queryValue(FallbackPolicy().queryItem) != nil
        }
        return isFallback(request, app: app)
    }

    /// Whether the URL carries the app's fallback marker: it came back from a fallback and stays on the web.
    private func isFallback(_ request: HTTPRequest, app: String) -> Bool {
        request.queryValue(fallbackItem(app: app)) != nil
    }

    /// `GET /?link=…`: a Firebase Dynamic Links long link, for a `link` on the app's own domains only. Its
    /// social preview (`st`, `sd`, `si`) is words of whoever wrote the URL: shown only on a domain whose owner
    /// turned `longLinkPreviews` on, and then marked as supplied by the link.
    func respondLongLink(_ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let visitor = LinkVisitor(userAgent: request.header("User-Agent"))
        let query = request.query
        let snapshot = service.snapshot
        guard let long = FDLLongLink(query: query), let linkDomain = linkDomain(domain, in: snapshot),
            let app = linkDomain.apps.first,
            let link = try? longLinkAsLink(
                long, domain: domain, app: app, previews: linkDomain.longLinkPreviews == true, in: snapshot)
        else {
            service.clicks.countMiss(domain: domain, .refused)
            return notFound(appName: nil)
        }
        let fromFallback = (visitor == .ios || visitor == .android) && isFallback(request, app: app)
        let inApp =
            visitor == .ios || visitor == .android ? LinkInAppBrowser(userAgent: request.header("User-Agent")) : nil
        // The canonical URL holds what the page shows, no more: an image refused is left out of it too.
        var shown = long
        shown.si = link.preview?.imageUrl
        let canonical = "https://\(domain)/?\(shown.query(includingPreview: link.preview != nil))"
        let decided = LinkAnswer(
            link, app: self.app(app, in: snapshot), shortURL: canonical, visitor: visitor, fromFallback: fromFallback,
            previewFromURL: link.preview != nil, inApp: inApp)
        count(domain, "-", visitor, outcome: decided.outcome)
        return render(decided)
    }

    private func app(_ id: String, in snapshot: Snapshot) -> App? {
        snapshot.registry.apps.first { $0.id == id }
    }

    /// The decided answer as HTTP: a page or a 302.
    private func render(_ decided: LinkAnswer) -> HTTPResponse {
        switch decided {
        case .redirect(let location): redirect(location)
        case .crawler(let content): page(LinkPage.crawler(content))
        case .landing(let content): page(LinkPage.landing(content))
        }
    }

    /// The long link as a link of the domain's app: its `link` and fallbacks checked like any link's. Its
    /// preview is kept only with `previews` (the domain's `longLinkPreviews`), and its image only on one of the
    /// app's own domains, like any destination: a stranger's image host never appears on the app's domain.
    private func longLinkAsLink(
        _ long: FDLLongLink, domain: String, app: String, previews: Bool, in snapshot: Snapshot
    ) throws -> ShortLink {
        guard let target = long.link else { throw RegistryError.invalidArgument(field: "link", "is required") }
        var image: String?
        if previews, let si = long.si {
            let registry = snapshot.registry
            let ownHosts = Set(registry.domains.filter { $0.apps.contains(app) && !$0.isLinkDomain }.map(\.host))
            image = try? LinkDestinations(appHosts: ownHosts).check(si, field: "si", allowStores: false)
        }
        let link = ShortLink(
            domain: domain, code: "", target: target, desktopUrl: long.ofl,
            preview: !previews || (long.st == nil && long.sd == nil && image == nil)
                ? nil : LinkPreview(title: long.st, description: long.sd, imageUrl: image),
            ios: long.imv == nil && long.ifl == nil
                ? nil : LinkPlatformOptions(minVersion: long.imv, fallbackUrl: long.ifl),
            android: long.amv == nil && long.afl == nil
                ? nil : LinkPlatformOptions(minVersion: long.amv, fallbackUrl: long.afl),
            skipLanding: long.efr ? true : nil)
        return try RegistryService.checkedLink(link, app: app, in: snapshot.registry, field: "link", creating: true)
    }

    private func linkDomain(_ host: String, in snapshot: Snapshot) -> Domain? {
        snapshot.registry.domains.first { $0.host == host && $0.isLinkDomain }
    }

    private func count(
        _ domain: String, _ code: String, _ visitor: LinkVisitor, outcome: LinkAnswer.Outcome,
        source: String = ClickKey.linkSource
    ) {
        service.clicks.count(
            domain: domain, code: code, platform: visitor.rawValue, outcome: outcome.rawValue, source: source)
    }

    private func page(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200, body: body, contentType: "text/html; charset=utf-8",
            headers: Self.pageHeaders + [("Cache-Control", "no-store")])
    }

    private func notFound(appName: String?) -> HTTPResponse { Self.notFoundPage(appName: appName) }

    /// The page for a code that sends nowhere.
    static func notFoundPage(appName: String? = nil) -> HTTPResponse {
        HTTPResponse(
            status: 404, body: LinkPage.notFound(appName: appName), contentType: "text/html; charset=utf-8",
            headers: pageHeaders)
    }

    private func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    static let pageHeaders: [(String, String)] = [
        ("Content-Security-Policy", LinkPage.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]
}
