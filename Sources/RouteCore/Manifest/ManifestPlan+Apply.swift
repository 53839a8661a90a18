extension ManifestPlan {
    /// The app's route order after applying: the manifest's routes in the manifest's order, each route the
    /// manifest leaves out (and the plan keeps) just before the manifest route it preceded, so that a route
    /// people added by hand keeps its neighbour rather than drifting to the end.
    public static func order(manifest: [String], current: [String], removed: Set<String>) -> [String] {
        let wanted = Set(manifest)
        var anchored: [String: [String]] = [:]
        var pending: [String] = []
        for id in current where !removed.contains(id) {
            if wanted.contains(id) {
                anchored[id] = pending
                pending = []
            } else {
                pending.append(id)
            }
        }
        return manifest.flatMap { (anchored[$0] ?? []) + [$0] } + pending
    }

    /// What differs between `reviewed` (the changes a person approved) and this plan, one phrase per
    /// resource (`route profile: reviewed "~ route profile: since ios 5.0 → 5.1", now no change`), in this
    /// plan's order and then the reviewed plan's: how a refused apply names what moved.
    public func differences(from reviewed: [Change]) -> [String] {
        func key(_ change: Change) -> String { "\(change.kind.rawValue) \(change.id)" }
        func lines(_ changes: [Change]) -> [String: [String]] {
            Dictionary(grouping: changes, by: key).mapValues { $0.map(\.line) }
        }
        let (old, new) = (lines(reviewed), lines(changes))
        var subjects: [String] = []
        for subject in changes.map(key) + reviewed.map(key) where !subjects.contains(subject) {
            if old[subject] != new[subject] { subjects.append(subject) }
        }
        func show(_ lines: [String]?) -> String {
            guard let lines else { return "no change" }
            return lines.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        return subjects.map { "\($0): reviewed \(show(old[$0])), now \(show(new[$0]))" }
    }

    /// The routes this plan removes that a live version still opens: each with its links and the versions
    /// that would lose them (a breaking prune, refused unless the caller allows it).
    public func breakingRemovals(in state: ManifestState, releases: [Release]) -> [BreakingRemoval] {
        let removed = Set(changes.filter { $0.kind == .route && $0.action == .remove }.map(\.id))
        var live: [Platform: [Version]] = [:]
        for release in releases where release.state == .live && release.app == state.appID {
            live[release.platform, default: []].append(release.version)
        }
        return state.routes.map(\.route).filter { removed.contains($0.id) }.compactMap { route in
            let versions = Platform.allCases.flatMap { platform in
                (live[platform] ?? []).sorted().filter { route.handles(platform, $0) }.map {
                    "\(platform.rawValue) \($0)"
                }
            }
            guard !versions.isEmpty else { return nil }
            let hosts = route.domains.isEmpty ? "every domain of the app" : route.domains.joined(separator: ", ")
            return BreakingRemoval(
                route: route.id, links: "\(route.pattern.displayText) on \(hosts)", versions: versions)
        }
    }

    /// A removal that live versions would notice.
    public struct BreakingRemoval: Sendable, Hashable {
        public var route: String
        /// The route's pattern and where it applies (`/old/* on m.badoo.com`).
        public var links: String
        /// `ios 5.12.0`, … : the live versions that open these links today.
        public var versions: [String]

        /// `route old (/old/* on m.badoo.com): live ios 5.12.0, android 3.1 lose these links`.
        public var text: String {
            "route \(route) (\(links)): live \(versions.joined(separator: ", ")) would lose these links"
        }
    }
}
