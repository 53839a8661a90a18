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
        init?(_ registry: Registry, host: String) {
            var chain: [Domain] = []
            var next: String? = host
            while let name = next?.lowercased() {
                guard chain.count <= 16, let domain = registry.domains.first(where: { $0.host.lowercased() == name })
                else { return nil }
                chain.append(domain)
                next = domain.aliasOf
            }
            guard let target = chain.last else { return nil }
            let hosts = Set(chain.map { $0.host.lowercased() })
            domains = chain
            apps = target.apps.map { id in registry.apps.first { $0.id == id } }
            routes = target.apps.map { id in
                (registry.routes[id] ?? []).filter { route in
                    route.pattern.scheme != nil || route.domains.isEmpty
                        || route.domains.contains { hosts.contains($0.lowercased()) }
                }
            }
            let appIDs = Set(target.apps)
            releases = registry.releases.filter { appIDs.contains($0.app) }
        }
    }

    private let entries = Mutex<[String: (inputs: Inputs, files: HostFiles)]>([:])

    /// The files of `host` in `registry`: remembered ones when the inputs are unchanged, else generated.
    /// Throws as `Generator.hostFiles` does.
    func files(_ registry: Registry, host: String) throws(RegistryError) -> HostFiles {
        guard let inputs = Inputs(registry, host: host) else {
            return try Generator.hostFiles(registry: registry, host: host)
        }
        if let entry = entries.withLock({ $0[host] }), entry.inputs == inputs {
            #if DEBUG
                let fresh = try Generator.hostFiles(registry: registry, host: host)
                assert(fresh == entry.files, "remembered files of \(host) differ from a fresh generation")
            #endif
            return entry.files
        }
        let files = try Generator.hostFiles(registry: registry, host: host)
        entries.withLock { $0[host] = (inputs, files) }
        return files
    }

    /// Forgets hosts that are no longer domains.
    func retain(hosts: Set<String>) {
        entries.withLock { entries in
            for host in entries.keys where !hosts.contains(host) { entries[host] = nil }
        }
    }
}
