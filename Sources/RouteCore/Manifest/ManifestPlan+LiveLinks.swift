extension ManifestPlan {
    /// What one live version would gain or lose on one domain if the plan were applied: the patterns of the
    /// rules it handles there (`/l/a/*`, `exclude /old/*`), before and after.
    public struct LiveLinks: Sendable, Hashable, Codable {
        /// The domain (lower-case), one the app's rules are written for.
        public var host: String
        public var platform: Platform
        public var version: Version
        /// Rules the version would handle on `host` that it does not today, in evaluation order.
        public var gained: [String]
        /// Rules it handles on `host` today that it would not, in today's order.
        public var lost: [String]

        public init(host: String, platform: Platform, version: Version, gained: [String], lost: [String]) {
            self.host = host
            self.platform = platform
            self.version = version
            self.gained = gained
            self.lost = lost
        }

        /// One line per rule for people: `  m.badoo.com ios 5.12.0: + /l/a/*`, `…: - /old/*`.
        public var lines: [String] {
            let subject = "  \(host) \(platform.rawValue) \(version):"
            return gained.map { "\(subject) + \($0)" } + lost.map { "\(subject) - \($0)" }
        }
    }

    /// The app's routes once the plan is applied, in evaluation order, as `Manifests.Apply` writes them: an
    /// added or changed route as the manifest says (a changed one keeps its switch-offs), a removed one gone,
    /// every other as it is, in `order(manifest:current:removed:)`.
    public func routesAfter(manifest: Manifest, state: ManifestState) -> [Route] {
        let routeChanges = changes.filter { $0.kind == .route }
        let removed = Set(routeChanges.filter { $0.action == .remove }.map(\.id))
        let written = Set(routeChanges.filter { $0.action == .add || $0.action == .change }.map(\.id))
        let wanted = Dictionary(manifest.routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let current = Dictionary(state.routes.map { ($0.route.id, $0.route) }, uniquingKeysWith: { first, _ in first })
        let order = Self.order(
            manifest: manifest.routes.map(\.id), current: state.routes.map(\.route.id), removed: removed)
        return order.compactMap { id in
            guard written.contains(id), let entry = wanted[id] else { return current[id] }
            return entry.route(switchedOff: current[id]?.switchedOff ?? [:])
        }
    }

    /// The rules each live version of the app would gain or lose per domain of `state` if `after` replaced
    /// the app's routes: derived from the plan (never part of what an apply checks), empty when no live
    /// version notices. A version's rules on a domain are the web routes that apply there and that it handles
    /// (switch-offs counted), plus the exclusions, which every version's links go through; a platform the app
    /// has no side on gets no links. Moves change no rule set and show nothing here.
    public static func liveLinks(state: ManifestState, after: [Route], releases: [Release]) -> [LiveLinks] {
        guard let app = state.app?.value else { return [] }
        // Pattern text once per route: a large app's routes are read for every domain and live version.
        let before = state.routes.map { ($0.route, text($0.route)) }
        let afterRules = after.map { ($0, text($0)) }
        var changes: [LiveLinks] = []
        for domain in state.domains.map(\.value) {
            let host = domain.host.lowercased()
            for platform in Platform.allCases where app.hasSide(on: platform) {
                let live = releases.filter {
                    $0.app == state.appID && $0.platform == platform && $0.state == .live
                }.map(\.version).sorted()
                for version in live {
                    let old = rules(before, host: host, platform: platform, version: version)
                    let new = rules(afterRules, host: host, platform: platform, version: version)
                    let (had, has) = (Set(old), Set(new))
                    let gained = unique(new.filter { !had.contains($0) })
                    let lost = unique(old.filter { !has.contains($0) })
                    if gained.isEmpty && lost.isEmpty { continue }
                    changes.append(
                        LiveLinks(host: host, platform: platform, version: version, gained: gained, lost: lost))
                }
            }
        }
        return changes
    }

    /// A route's rule as people read it; nil for a custom-scheme route, which no domain serves.
    private static func text(_ route: Route) -> String? {
        guard route.pattern.scheme == nil else { return nil }
        return (route.action == .exclude ? "exclude " : "") + route.pattern.displayText
    }

    /// The rules `version` goes through on `host`, as pattern text, in evaluation order.
    private static func rules(
        _ routes: [(route: Route, text: String?)], host: String, platform: Platform, version: Version
    ) -> [String] {
        routes.compactMap { route, text in
            guard let text, route.domains.isEmpty || route.domains.contains(where: { Domain.sameHost($0, host) })
            else { return nil }
            return route.action == .exclude || route.handles(platform, version) ? text : nil
        }
    }

    private static func unique(_ texts: [String]) -> [String] {
        var seen: Set<String> = []
        return texts.filter { seen.insert($0).inserted }
    }
}

extension ManifestPlan {
    /// The plan of `manifest` against `state` with `liveLinks` filled in from the app's `releases`.
    public init(manifest: Manifest, state: ManifestState, prune: Bool = false, releases: [Release]) {
        self.init(manifest: manifest, state: state, prune: prune)
        addLiveLinks(manifest: manifest, state: state, releases: releases)
    }

    /// True when the plan adds, changes or removes a route: only those change what a version opens, so a
    /// plan without any needs no releases read.
    public var changesRules: Bool { changes.contains { $0.kind == .route && $0.action != .move } }

    /// Fills `liveLinks` (nil when no live version would notice).
    public mutating func addLiveLinks(manifest: Manifest, state: ManifestState, releases: [Release]) {
        guard changesRules else { return }
        let links = Self.liveLinks(
            state: state, after: routesAfter(manifest: manifest, state: state), releases: releases)
        liveLinks = links.isEmpty ? nil : links
    }
}
