import Foundation
import RouteCore

/// `routereg link create|list|get|stats|delete|import`: short links on an app's link domains.
enum LinkCommands {
    static let domainFlag = FlagSpec.value("domain", "HOST", "the link domain (default: the app's first)")
    static let codeArguments = [
        PositionalSpec(name: "DOMAIN", summary: "the link domain, e.g. go.badoo.com"),
        PositionalSpec(name: "CODE", summary: "the code after the domain"),
    ]

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["link", "create"], summary: "make a short link to a deep link of the app; prints the short URL last",
            positionals: [
                PositionalSpec(name: "APP", summary: "the app the link opens"),
                PositionalSpec(name: "TARGET", summary: "the deep link: an https URL on one of the app's domains"),
            ],
            flags: [
                domainFlag, .value("code", "CODE", "a custom code (default: 7 random characters)"),
                .value("title", "TEXT", "social preview title"),
                .value("description", "TEXT", "social preview description"),
                .value("image", "URL", "social preview image (https)"),
                .value("ios-min", "VERSION", "lowest iOS version the link asks for (the route's since may ask more)"),
                .value("android-min", "VERSION", "lowest Android version the link asks for"),
                .value("ios-fallback", "URL", "where iOS visitors go instead of the web page"),
                .value("android-fallback", "URL", "where Android visitors go instead of the web page"),
                .value("desktop", "URL", "where desktop browsers go (default: the target)"),
                .value("expires", "DATE", "when it stops working (RFC 3339, or YYYY-MM-DD at midnight UTC)"),
                .bool("skip-landing", "phones go straight to the target, without the landing page"),
                .value("max-clicks", "N", "it stops once people clicked it N times (bots do not count)"),
            ] + campaignFlags + [
                .value("tag", "TAG", "a label to group links by", repeatable: true)
            ],
            examples: [
                "link create badoo https://m.badoo.com/l/a/42 --code summer --title 'Lookalikes' --ios-min 5.12",
                "link create badoo https://m.badoo.com/l/a/42 --utm-source newsletter --utm-campaign summer --tag promo",
            ], action: .run(create)),
        CommandSpec(
            ["link", "list"], summary: "list short links",
            flags: [
                .value("app", "APP", "only this app's"), .value("text", "TEXT", "only codes or targets containing it"),
                .value("tag", "TAG", "only links carrying this tag"),
                .value("campaign", "NAME", "only links of this campaign (utm_campaign)"),
            ] + CommonFlags.paging,
            examples: ["link list --app badoo --text summer", "link list --app badoo --tag promo --campaign summer"],
            action: .run(list)),
        CommandSpec(
            ["link", "get"], summary: "show a short link", positionals: codeArguments,
            examples: ["link get go.badoo.com summer"], action: .run(get)),
        LinkStats.spec, LinkQR.spec,
        CommandSpec(
            ["link", "disable"], summary: "switch a short link off: it answers 404 until enabled again",
            positionals: codeArguments, examples: ["link disable go.badoo.com summer"],
            action: .run { try switchLink($0, disabled: true) }),
        CommandSpec(
            ["link", "enable"], summary: "switch a disabled short link on again",
            positionals: codeArguments, examples: ["link enable go.badoo.com summer"],
            action: .run { try switchLink($0, disabled: false) }),
        CommandSpec(
            ["link", "delete"], summary: "delete a short link (it answers 404 from now on)",
            positionals: codeArguments, flags: [CommonFlags.etag],
            examples: ["link delete go.badoo.com summer"], action: .run(delete)),
        resolveSpec, LinkImport.spec,
    ]

    static func create(_ run: Invocation) throws {
        let arguments = run.arguments
        let preview = LinkPreview(
            title: arguments.value("title"), description: arguments.value("description"),
            imageUrl: arguments.value("image"))
        func options(_ platform: String) -> LinkPlatformOptions? {
            let minimum = arguments.value("\(platform)-min")
            let fallback = arguments.value("\(platform)-fallback")
            return minimum == nil && fallback == nil
                ? nil : LinkPlatformOptions(minVersion: minimum, fallbackUrl: fallback)
        }
        let link = ShortLink(
            domain: arguments.value("domain") ?? "", code: arguments.value("code") ?? "", target: run.argument(1),
            desktopUrl: arguments.value("desktop"),
            preview: preview == LinkPreview() ? nil : preview, ios: options("ios"), android: options("android"),
            expiresAt: try arguments.value("expires").map { try expiry($0) },
            skipLanding: arguments.bool("skip-landing") ? true : nil, utm: campaign(arguments),
            tags: arguments.values("tag").isEmpty ? nil : arguments.values("tag"),
            maxClicks: try arguments.value("max-clicks").map { text throws(UsageError) in
                guard let number = Int(text), number >= 1 else {
                    throw UsageError("--max-clicks: \"\(text)\" is not a positive number")
                }
                return number
            })
        let (created, raw) = try run.call(
            API.LinksCreate.self, WriteRequest(.init(app: run.argument(0), link: link)))
        if run.json { return run.printJSON(raw) }
        run.print("Created \(created.meta.name) → \(created.link.target)")
        run.print(created.shortUrl)
    }

    /// `--utm-source` … `--utm-content`: the campaign added to the link's web and store destinations.
    static let campaignFlags: [FlagSpec] = [
        .value("utm-source", "TEXT", "campaign source (utm_source), e.g. newsletter"),
        .value("utm-medium", "TEXT", "campaign medium (utm_medium), e.g. email"),
        .value("utm-campaign", "NAME", "campaign name (utm_campaign; the App Store campaign token too)"),
        .value("utm-term", "TEXT", "campaign term (utm_term)"),
        .value("utm-content", "TEXT", "campaign content (utm_content)"),
    ]

    static func campaign(_ arguments: ParsedArguments) -> LinkCampaign? {
        let campaign = LinkCampaign(
            source: arguments.value("utm-source"), medium: arguments.value("utm-medium"),
            campaign: arguments.value("utm-campaign"), term: arguments.value("utm-term"),
            content: arguments.value("utm-content"))
        return campaign.isEmpty ? nil : campaign
    }

    /// `link disable|enable`: the link as it is with `disabled` changed, written against the etag read, so a
    /// concurrent edit is refused rather than undone.
    static func switchLink(_ run: Invocation, disabled: Bool) throws {
        let (current, _) = try run.call(API.LinksGet.self, .init(domain: run.argument(0), code: run.argument(1)))
        var link = current.link
        link.disabled = disabled ? true : nil
        let (updated, raw) = try run.call(
            API.LinksUpdate.self, WriteRequest(.init(link: link, etag: current.meta.etag)))
        if run.json { return run.printJSON(raw) }
        run.print(
            disabled
                ? "Disabled \(updated.shortUrl): it answers 404 until 'routereg link enable'."
                : "Enabled \(updated.shortUrl).")
    }

    /// `2026-12-31` is midnight UTC of that day; anything else is passed on as RFC 3339 for the server to judge.
    static func expiry(_ text: String, flag: String = "--expires") throws(UsageError) -> String {
        let parts = text.split(separator: "-")
        if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), text.count == 10 {
            return text + "T00:00:00Z"
        }
        guard text.contains("T") else { throw UsageError("\(flag): \"\(text)\" is not a date like 2026-12-31") }
        return text
    }

    static func list(_ run: Invocation) throws {
        let page = try run.page()
        let (result, raw) = try run.call(
            API.LinksList.self,
            .init(
                .init(
                    app: run.arguments.value("app"), text: run.arguments.value("text"),
                    tag: run.arguments.value("tag"), campaign: run.arguments.value("campaign")), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No links. Make one with 'routereg link create'.") }
        let rows = result.items.map { [$0.shortUrl, $0.app, $0.link.target, run.ago($0.meta.createTime)] }
        run.print(TextTable.render(rows, header: ["short URL", "app", "target", "created"]))
        run.printNextPage(result.nextPageToken)
    }

    static func get(_ run: Invocation) throws {
        let (link, raw) = try run.call(API.LinksGet.self, .init(domain: run.argument(0), code: run.argument(1)))
        if run.json { return run.printJSON(raw) }
        var lines = ["\(link.shortUrl) (\(link.app))", "  target: \(link.link.target)"]
        if let desktop = link.link.desktopUrl { lines.append("  desktop: \(desktop)") }
        for platform in Platform.allCases {
            guard let options = link.link.options(platform) else { continue }
            if let minimum = options.minVersion { lines.append("  \(platform.rawValue) minimum: \(minimum)") }
            if let fallback = options.fallbackUrl { lines.append("  \(platform.rawValue) fallback: \(fallback)") }
        }
        if let title = link.link.preview?.title { lines.append("  title: \(title)") }
        if let expires = link.link.expiresAt { lines.append("  expires: \(expires)") }
        if link.link.disabled == true { lines.append("  disabled: answers 404 until enabled") }
        if let maximum = link.link.maxClicks { lines.append("  stops after: \(maximum) clicks by people") }
        if let utm = link.link.utm {
            lines.append("  campaign: " + utm.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " "))
        }
        if let tags = link.link.tags { lines.append("  tags: \(tags.joined(separator: ", "))") }
        lines.append("  created by \(link.createdBy), \(run.ago(link.meta.createTime))")
        run.print(lines.joined(separator: "\n"))
    }

    static func delete(_ run: Invocation) throws {
        let (_, raw) = try run.call(
            API.LinksDelete.self,
            WriteRequest(
                .init(domain: run.argument(0), code: run.argument(1), etag: run.arguments.value("etag")),
            ))
        if run.json { return run.printJSON(raw) }
        run.print("Deleted \(ResourceName.link(run.argument(0), run.argument(1))).")
    }
}

extension LinkCommands {
    static let resolveSpec = CommandSpec(
        ["link", "resolve"], summary: "what an app version is told for a short URL (Links.Resolve)",
        positionals: [PositionalSpec(name: "URL", summary: "the short URL, e.g. https://go.badoo.com/summer")],
        flags: [
            .value("platform", "PLATFORM", "ios or android (required)"),
            .value("version", "VERSION", "the app version asking (required)"),
        ],
        examples: ["link resolve https://go.badoo.com/summer --platform ios --version 5.12.0"], action: .run(resolve))

    static func resolve(_ run: Invocation) throws {
        guard let platformText = run.arguments.value("platform"), let versionText = run.arguments.value("version")
        else { throw UsageError("'routereg link resolve' needs --platform PLATFORM and --version VERSION") }
        let platform = try ArgumentValues.platform(platformText, field: "--platform")
        let version = try ArgumentValues.version(versionText, field: "--version")
        let (answer, raw) = try run.call(
            API.LinksResolve.self, .init(url: run.argument(0), platform: platform, version: version))
        if run.json { return run.printJSON(raw) }
        var lines = ["target: \(answer.target) (\(answer.app))"]
        if let route = answer.route { lines.append("route: \(route)") }
        if let minimum = answer.minVersion {
            lines.append("minimum version: \(minimum) (from the \(answer.minVersionSource ?? "route"))")
        }
        var decision = "\(answer.decision.decision.rawValue)"
        if let reason = answer.decision.reason { decision += " (\(reason.rawValue))" }
        if let since = answer.decision.supportedSince { decision += ", supported since \(since)" }
        lines.append("\(platform.rawValue) \(version): \(decision)")
        if let fallback = answer.decision.fallbackUrl { lines.append("fallback: \(fallback)") }
        run.print(lines.joined(separator: "\n"))
    }
}
