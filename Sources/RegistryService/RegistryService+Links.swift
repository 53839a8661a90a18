import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// `Links.Create`: one link for `app`, on its link domain, with its code drawn when not given.
    public func createLink(_ link: ShortLink, app: String, by caller: Caller) throws(RegistryError) -> API.LinkView {
        let created = try createLinks([link], app: app, by: caller, method: API.LinksCreate.name, field: "link")
        return created[0]
    }

    /// `Links.BatchCreate`: up to `API.LinksBatchCreate.maxLinks` links, all or none, in one write.
    public func createLinks(_ links: [ShortLink], app: String, by caller: Caller) throws(RegistryError)
        -> [API.LinkView]
    {
        guard (1...API.LinksBatchCreate.maxLinks).contains(links.count) else {
            throw RegistryError.invalidArgument(
                field: "links", "must hold 1 to \(API.LinksBatchCreate.maxLinks) links")
        }
        return try createLinks(links, app: app, by: caller, method: API.LinksBatchCreate.name, field: "links[]")
    }

    private func createLinks(
        _ links: [ShortLink], app: String, by caller: Caller, method: String, field: String
    ) throws(RegistryError) -> [API.LinkView] {
        let registry = snapshot.registry
        var checked: [ShortLink] = []
        for (index, link) in links.enumerated() {
            let at = field == "links[]" ? "links[\(index)]" : field
            checked.append(try Self.checkedLink(link, app: app, in: registry, field: at, creating: true))
        }
        var seen: Set<String> = []
        for (index, link) in checked.enumerated() where !link.code.isEmpty {
            if !seen.insert("\(link.domain)/\(link.code)").inserted {
                throw RegistryError.invalidArgument(field: "links[\(index)].code", "is given twice")
            }
        }
        let resource: ResourceName =
            checked.count == 1 && !checked[0].code.isEmpty
            ? .link(checked[0].domain, checked[0].code) : .links(host: checked[0].domain)
        let stored = try write(
            caller, method: method, resource: resource, about: "\(app) \(checked.count) link(s)"
        ) { tx in
            let created = try self.store.links.create(
                try self.drawCodes(checked, in: tx), app: app, by: caller.actor, in: tx)
            let views = created.map(Self.view)
            try self.enqueueLinkEvents(WebhookEventType.linkCreated, app: app, views, in: tx)
            return Mutation(
                value: views, before: nil, after: created.map { $0.link }, change: .nothing,
                apps: [app])
        }.value
        refreshLinksAfterWrite()
        return stored
    }

    /// The links with a code drawn for each that has none; a drawn code already used is drawn again.
    private func drawCodes(_ links: [ShortLink], in tx: Transaction) throws -> [ShortLink] {
        var links = links
        var pending = links.indices.filter { links[$0].code.isEmpty }
        for _ in 0..<8 where !pending.isEmpty {
            var drawn = Set(links.map { "\($0.domain)/\($0.code)" })
            for index in pending {
                repeat {
                    links[index].code = ShortLinkCode.draw()
                } while !drawn.insert(
                    "\(links[index].domain)/\(links[index].code)"
                ).inserted
            }
            let taken = Set(try store.links.taken(pending.map { links[$0] }, in: tx).map { "\($0.domain)/\($0.code)" })
            pending = pending.filter { taken.contains("\(links[$0].domain)/\(links[$0].code)") }
        }
        guard pending.isEmpty else {
            throw RegistryError(
                .aborted, "no free code was drawn for \(ResourceName.links(host: links[pending[0]].domain)); try again")
        }
        return links
    }

    /// `Links.Get`.
    public func getLink(domain: String, code: String) throws(RegistryError) -> API.LinkView {
        try mapped {
            guard
                let stored = try store.read({ tx in try store.links.get(domain: domain.lowercased(), code: code, in: tx)
                }),
                !stored.deleted
            else { throw RegistryError.notFound(.link(domain.lowercased(), code)) }
            return Self.view(stored)
        }
    }

    /// `Links.List`; with `scope` (a scoped token's apps), only their links.
    public func listLinks(_ input: API.LinksList.Input, within scope: [String]? = nil) throws(RegistryError)
        -> API.LinksList.Output
    {
        try mapped {
            let page = try store.read { tx in
                try store.links.list(
                    app: input.filter.app, text: input.filter.text, tag: input.filter.tag,
                    campaign: input.filter.campaign, input.page, within: scope, in: tx)
            }
            return API.LinksList.Output(items: page.items.map(Self.view), nextPageToken: page.nextPageToken ?? "")
        }
    }

    /// `Links.Update`: the link's destinations and preview; its domain, code and app stay.
    public func updateLink(_ link: ShortLink, etag: String?, by caller: Caller) throws(RegistryError) -> API.LinkView {
        let domain = link.domain.lowercased()
        guard let held = links.link(domain: domain, code: link.code), !held.deleted else {
            throw RegistryError.notFound(.link(domain, link.code))
        }
        let checked = try Self.checkedLink(link, app: held.app, in: snapshot.registry, field: "link", creating: false)
        let updated = try write(
            caller, method: API.LinksUpdate.name, resource: .link(domain, link.code), about: "\(held.app)"
        ) { tx in
            let stored = try self.store.links.update(checked, expectedEtag: etag, in: tx)
            let view = Self.view(stored)
            try self.enqueueLinkEvents(WebhookEventType.linkUpdated, app: view.app, [view], in: tx)
            return Mutation(value: view, before: held.link, after: stored.link, change: .nothing)
        }.value
        refreshLinksAfterWrite()
        return updated
    }

    /// `Links.Delete`: the link answers 404 from now on; its code is never drawn again.
    public func deleteLink(domain: String, code: String, etag: String?, by caller: Caller) throws(RegistryError) {
        let domain = domain.lowercased()
        _ = try write(caller, method: API.LinksDelete.name, resource: .link(domain, code), about: domain) { tx in
            let stored = try self.store.links.delete(domain: domain, code: code, expectedEtag: etag, in: tx)
            try self.enqueueLinkEvents(WebhookEventType.linkDeleted, app: stored.app, [Self.view(stored)], in: tx)
            return Mutation(value: Empty(), before: stored.link, after: nil, change: .nothing)
        }
        refreshLinksAfterWrite()
    }

    /// `Links.Stats`: the link's stored counters plus those not flushed yet.
    public func linkStats(domain: String, code: String) throws(RegistryError) -> API.LinksStats.Output {
        let domain = domain.lowercased()
        guard links.link(domain: domain, code: code) != nil else { throw RegistryError.notFound(.link(domain, code)) }
        let counts = try registryLinks.counts(domain: domain, code: code) { () throws(RegistryError) in
            try mapped { try store.read { tx in try store.clicks.counts(domain: domain, code: code, in: tx) } }
        }
        let rows = counts.map {
            API.LinksStats.Count(
                day: $0.key.day, platform: $0.key.platform, outcome: $0.key.outcome, source: $0.key.source,
                count: $0.value)
        }.sorted {
            ($1.day, $0.platform, $0.outcome, $0.source ?? "") < ($0.day, $1.platform, $1.outcome, $1.source ?? "")
        }
        return API.LinksStats.Output(
            name: ResourceName.link(domain, code).description, counts: rows, domainMisses: try domainMisses(domain))
    }

    /// The domain's misses of the last `API.LinksStats.missDays` days, stored and not written yet.
    private func domainMisses(_ domain: String) throws(RegistryError) -> [API.LinksStats.Miss] {
        let since = ClickCounter.dayText(Int(Date().timeIntervalSince1970 / 86_400) - API.LinksStats.missDays + 1)
        let counts = try registryLinks.misses(domain: domain, since: since) { () throws(RegistryError) in
            try mapped { try store.read { tx in try store.misses.counts(domain: domain, since: since, in: tx) } }
        }
        return counts.map { API.LinksStats.Miss(day: $0.key.day, outcome: $0.key.outcome, count: $0.value) }
            .sorted { ($1.day, $0.outcome) < ($0.day, $1.outcome) }
    }

    /// `Links.Resolve`: the link's target decided for one app version, as `CanOpen.Check` decides it, with
    /// the link's own minimum version applied on top of the route's `since`.
    public func resolveLink(_ input: API.LinksResolve.Input) throws(RegistryError) -> API.LinksResolve.Output {
        guard let url = LinkURL(input.url), let host = url.host.isEmpty ? nil : url.host else {
            throw RegistryError.invalidArgument(field: "url", "is not an absolute URL (https://host/code)")
        }
        let code = String(url.path.drop(while: { $0 == "/" }))
        guard let stored = registryLinks.serving(domain: host, code: code) else {
            throw RegistryError.notFound(.link(host, code))
        }
        let current = snapshot
        var decision = current.engine.decide(
            app: stored.app, platform: input.platform, version: input.version, url: stored.link.target)
        let since = decision.route.flatMap { id in
            current.registry.routes[stored.app]?.first { $0.id == id }?.platforms[input.platform]?.since
        }
        let own = stored.link.options(input.platform)?.minVersion.flatMap { try? Version($0) }
        var minimum = since
        var source: String? = since == nil ? nil : "route"
        if let own, since.map({ own > $0 }) ?? true {
            minimum = own
            source = "link"
            if decision.decision == .openInApp, input.version < own {
                decision = Decision(
                    decision: .openInBrowser, reason: .unsupportedVersion, route: decision.route,
                    fallbackUrl: FallbackURL.make(stored.link.target, policy: Self.fallbackPolicy(stored.app, current)),
                    supportedSince: own.canonical)
            }
        }
        return API.LinksResolve.Output(
            target: stored.link.target, app: stored.app, route: decision.route, minVersion: minimum?.canonical,
            minVersionSource: source, decision: decision)
    }

    static func fallbackPolicy(_ app: String, _ snapshot: Snapshot) -> FallbackPolicy {
        snapshot.registry.apps.first { $0.id == app }?.fallback ?? FallbackPolicy()
    }

    /// Reads the links written since the index last looked (after this server's own write); never fails.
    func refreshLinksAfterWrite() { registryLinks.refreshAfterWrite() }

    /// Reads every link written since the index last looked, within `deadline`.
    public func refreshLinks(deadline: ContinuousClock.Instant) throws(RegistryError) {
        try registryLinks.refresh(deadline: deadline)
    }

    static func view(_ stored: StoredLink) -> API.LinkView {
        API.LinkView(
            link: stored.link, app: stored.app,
            shortUrl: ShortLinkURL.short(domain: stored.link.domain, code: stored.link.code),
            createdBy: stored.createdBy,
            meta: ResourceMeta(
                name: ResourceName.link(stored.link.domain, stored.link.code).description, etag: stored.etag,
                createTime: Timestamp.string(stored.createTime), updateTime: Timestamp.string(stored.updateTime)))
    }

    /// The link as it will be stored: its domain resolved and lower-cased, every destination checked.
    public static func checkedLink(
        _ link: ShortLink, app: String, in registry: Registry, field: String, creating: Bool
    ) throws(RegistryError) -> ShortLink {
        guard registry.apps.contains(where: { $0.id == app }) else { throw RegistryError.notFound(.app(app)) }
        var link = link
        let linkDomains = registry.domains.filter { $0.isLinkDomain && $0.apps.contains(app) }
        if link.domain.isEmpty {
            guard let first = linkDomains.first else {
                throw RegistryError.failedPrecondition(
                    "\(ResourceName.app(app)) has no link domain: add one (routereg domain add HOST --app \(app) --links)"
                )
            }
            link.domain = first.host
        }
        link.domain = link.domain.lowercased()
        guard linkDomains.contains(where: { $0.host == link.domain }) else {
            throw RegistryError.invalidArgument(
                field: "\(field).domain", "\(link.domain) is not a link domain of \(ResourceName.app(app))")
        }
        if !link.code.isEmpty || !creating, let refusal = ShortLinkCode.refusal(link.code) {
            throw RegistryError.invalidArgument(field: "\(field).code", refusal)
        }
        // A target is a deep link into the app: one of its own domains that are not link domains (a link to
        // a short link would loop). Other destinations may also be its store pages.
        let ownHosts = Set(registry.domains.filter { $0.apps.contains(app) && !$0.isLinkDomain }.map(\.host))
        let destinations = LinkDestinations(appHosts: ownHosts)
        link.target = try destinations.check(link.target, field: "\(field).target", allowStores: false)
        if let desktop = link.desktopUrl {
            link.desktopUrl = try destinations.check(desktop, field: "\(field).desktopUrl")
        }
        for platform in Platform.allCases {
            guard var options = link.options(platform) else { continue }
            let at = "\(field).\(platform.rawValue)"
            if let minimum = options.minVersion {
                do { options.minVersion = try Version(minimum).canonical } catch {
                    throw RegistryError.invalidArgument(field: "\(at).minVersion", "is not a version like 5.12.0")
                }
            }
            if let fallback = options.fallbackUrl {
                options.fallbackUrl = try destinations.check(fallback, field: "\(at).fallbackUrl")
            }
            switch platform {
            case .ios: link.ios = options
            case .android: link.android = options
            }
        }
        if let image = link.preview?.imageUrl {
            // An image is fetched by a crawler, not a place a person is sent: any https host will do.
            guard image.lowercased().hasPrefix("https://"), !image.contains(where: { $0.isWhitespace || $0 == "\"" })
            else { throw RegistryError.invalidArgument(field: "\(field).preview.imageUrl", "must be an https URL") }
        }
        if let expires = link.expiresAt {
            guard let date = try? Date(expires, strategy: .iso8601) else {
                throw RegistryError.invalidArgument(
                    field: "\(field).expiresAt", "must be an RFC 3339 time (2026-12-31T23:59:59Z)")
            }
            link.expiresAt = Timestamp.string(date)
        }
        if let utm = link.utm {
            if let (at, reason) = utm.refusal() {
                throw RegistryError.invalidArgument(field: "\(field).utm.\(at)", reason)
            }
            link.utm = utm.isEmpty ? nil : utm
        }
        if let tags = link.tags {
            guard tags.count <= ShortLink.maxTags else {
                throw RegistryError.invalidArgument(field: "\(field).tags", "holds more than \(ShortLink.maxTags) tags")
            }
            if let bad = tags.firstIndex(where: { !ShortLink.isValidTag($0) }) {
                throw RegistryError.invalidArgument(
                    field: "\(field).tags[\(bad)]", "must be 1 to 64 of letters, digits and _ - . :")
            }
            // A set, kept in the order first given: the same tag twice is one tag.
            var seen = Set<String>()
            let unique = tags.filter { seen.insert($0).inserted }
            link.tags = unique.isEmpty ? nil : unique
        }
        if link.disabled == false { link.disabled = nil }
        if let maximum = link.maxClicks, !(1...1_000_000_000).contains(maximum) {
            throw RegistryError.invalidArgument(field: "\(field).maxClicks", "must be 1 to 1000000000")
        }
        return link
    }
}

extension RegistryService {
    /// Writes the clicks and misses counted since the last flush; on failure they are kept for the next one.
    public func flushClicks(deadline: ContinuousClock.Instant) { registryLinks.flush(deadline: deadline) }
}
