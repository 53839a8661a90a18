import Foundation
import RouteCore
import Synchronization

/// Remembers each host's generated files with the exact part of the registry they were generated from,
/// so a write regenerates (and lints) only the hosts whose inputs it changed.
///
/// Generation is a pure function of those inputs, so an entry stays right whoever wrote since: the inputs
/// are compared in full, never hashed. They are a superset of what the generators read for a host: the
/// host's alias chain, the target domain's apps, those apps' releases, and their routes that apply on the
/// chain (or on a custom scheme). Debug builds check every reuse against a fresh generation.
final class HostFilesCache: Sendable {
    /// What the files of one host are computed from.
    struct Inputs: Equatable {
        var domains: [Domain]
        var apps: [App?]
        var routes: [[Route]]
        var releases: [Release]

        /// nil when `host` is not a domain of `registry` or its alias chain is broken (no reuse then).
        /// `releasesByApp`: the registry's releases grouped by app, made once for every host of a write (each
        /// host filtering all releases made a write cost apps × releases). `previous`: the inputs remembered
        /// for the host, whose routes are taken as they are when the chain and the app's array are the same
        /// (a write to another app then costs this host no pass over its routes).
        init?(
            _ registry: Registry, host: String, index: RegistryIndex, releasesByApp: [String: [Release]],
            previous: Inputs?
        ) {
            var chain: [Domain] = []
            var next: String? = host
            while let name = next?.lowercased() {
                guard chain.count <= 16, let domain = index.domains[name] else { return nil }
                chain.append(domain)
                next = domain.aliasOf
            }
            guard let target = chain.last else { return nil }
            domains = chain
            apps = target.apps.map { id in registry.apps.first { $0.id == id } }
            let applies = { (route: Route) in
                route.pattern.scheme != nil || route.domains.isEmpty
                    || route.domains.contains { host in chain.contains { Domain.sameHost(host, $0.host) } }
            }
            let sameChain = previous?.domains == chain && previous?.routes.count == target.apps.count
            routes = target.apps.enumerated().map { position, id in
                let all = registry.routes[id] ?? []
                // The app's own array when every route applies (the common case): comparing an array with
                // itself is O(1), so a write elsewhere does not compare this host's routes one by one.
                if sameChain, let previous, previous.routes[position].isSameStorage(as: all) { return all }
                return all.allSatisfy(applies) ? all : all.filter(applies)
            }
            releases =
                target.apps.count == 1
                ? releasesByApp[target.apps[0]] ?? [] : target.apps.flatMap { releasesByApp[$0] ?? [] }
        }
    }

    /// A host's files without rule lint, and its rule lint once someone asked for it.
    private struct Entry {
        var inputs: Inputs
        var files: HostFiles
        var ruleLint: [LintFinding]?
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// The releases last grouped by app, and the groups: a registry derived from the last one shares its
    /// releases array when a write changed none (route writes), and then its groups too, which makes
    /// comparing every host's releases O(1).
    private let grouped = Mutex<(releases: [Release], byApp: [String: [Release]])>(([], [:]))

    /// `releases` grouped by app, each group in their order.
    func releasesByApp(_ releases: [Release]) -> [String: [Release]] {
        if let kept = grouped.withLock({ $0.releases.isSameStorage(as: releases) ? $0.byApp : nil }) { return kept }
        let byApp = Dictionary(grouping: releases, by: \.app)
        grouped.withLock { $0 = (releases, byApp) }
        return byApp
    }

    /// The files of `host` in `registry`: remembered ones when the inputs are unchanged, else generated.
    /// `lint` holds the rule-list findings only when `withRuleLint` (see `Generator.hostFiles`): a route
    /// write skips them, a publish reports them. Throws as `Generator.hostFiles` does.
    func files(
        _ registry: Registry, host: String, index: RegistryIndex, withRuleLint: Bool,
        releasesByApp: [String: [Release]]
    ) throws(RegistryError) -> HostFiles {
        let known = entries.withLock { $0[host] }
        guard
            let inputs = Inputs(
                registry, host: host, index: index, releasesByApp: releasesByApp, previous: known?.inputs)
        else {
            return try Generator.hostFiles(registry: registry, host: host, ruleLint: withRuleLint)
        }
        var entry: Entry
        if let known, known.inputs == inputs {
            entry = known
            // Kept with this registry's arrays: the next write's registry derives from this one and shares
            // them, so comparing is O(1) again after a full load gave every array new storage.
            entry.inputs = inputs
        } else {
            let files = try Generator.hostFiles(registry: registry, host: host, ruleLint: false)
            // The rule lint reads the rules alone (domains, apps, routes), never releases: a publish or a
            // retire keeps it, and it is most of a large app's publish.
            let sameRules =
                known.map {
                    $0.inputs.domains == inputs.domains && $0.inputs.apps == inputs.apps
                        && $0.inputs.routes == inputs.routes
                } ?? false
            entry = Entry(inputs: inputs, files: files, ruleLint: sameRules ? known?.ruleLint : nil)
        }
        var files = entry.files
        if withRuleLint {
            let ruleLint = entry.ruleLint ?? Generator.ruleLint(registry: registry, host: host)
            entry.ruleLint = ruleLint
            files.lint = ruleLint + files.lint
        }
        entries.withLock { $0[host] = entry }
        #if DEBUG
            let fresh = try Generator.hostFiles(registry: registry, host: host, ruleLint: withRuleLint)
            assert(fresh == files, "remembered files of \(host) differ from a fresh generation")
        #endif
        return files
    }

    /// Forgets hosts that are no longer domains.
    func retain(hosts: Set<String>) {
        entries.withLock { entries in
            for host in entries.keys where !hosts.contains(host) { entries[host] = nil }
        }
    }
}

extension Array {
    /// True when both arrays share one buffer (so they are equal without comparing an element). Only a
    /// shortcut: arrays with different buffers may still be equal.
    fileprivate func isSameStorage(as other: [Element]) -> Bool {
        count == other.count
            && withUnsafeBufferPointer { mine in
                other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
            }
    }
}
