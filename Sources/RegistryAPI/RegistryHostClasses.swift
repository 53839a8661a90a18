import HTTPServing
import RegistryService
import RouteCore
import ThreadShards

/// Which routes a `Host` reaches: the registry's domains serve what devices and visitors fetch (well-known
/// files, short links on link domains), never the admin surfaces (`/rpc`, `/console/`, `/metrics`), unless
/// the operator names the host in `AdminSurfaces.adminHosts`. Every other host (the API's own name,
/// `localhost`, an address) is an admin host, as before.
///
/// A router route names the classes it answers on; a request's host is classified once, from a table made
/// per snapshot and per request thread (`ThreadSharded`), so a classification is one dictionary lookup
/// under the thread's own lock. The well-known files answer on every host and never ask.
final class RegistryHostClasses: Sendable {
    /// A link domain: short links and FDL long links, well-known files.
    static let links = HostClass("links")
    /// A registry domain with links off: well-known files only.
    static let documents = HostClass("documents")
    /// Not a registry domain, or named in `--admin-hosts`: the API, the console and `/metrics`.
    static let admin = HostClass("admin")
    /// A link domain named in `--admin-hosts`: short links and the admin surfaces both.
    static let adminLinks = HostClass("admin+links")

    /// The classes the admin surfaces answer on.
    static let adminRoutes = [admin, adminLinks]
    /// The classes short links answer on.
    static let linkRoutes = [links, adminLinks]

    private struct Table {
        var stamp: UInt64 = .max
        /// Registry domains by host; a host missing is `admin`.
        var classes: [String: HostClass] = [:]
    }

    private let service: RegistryService
    private let adminHosts: Set<String>
    private let tables = ThreadSharded { Table() }

    /// - Parameter adminHosts: normalized host names (`HostName.normalize`) where the admin surfaces
    ///   answer even when they are registry domains.
    init(service: RegistryService, adminHosts: Set<String>) {
        self.service = service
        self.adminHosts = adminHosts
    }

    /// The class of a normalized host.
    func classify(_ host: String) -> HostClass {
        let stamp = service.snapshots.installCount
        return tables.withLock { table in
            if table.stamp != stamp {
                table = Table(
                    stamp: stamp,
                    classes: Self.classes(of: service.snapshot.registry.domains, adminHosts: adminHosts))
            }
            return table.classes[host] ?? Self.admin
        }
    }

    /// Each registry domain's class.
    static func classes(of domains: [Domain], adminHosts: Set<String>) -> [String: HostClass] {
        var classes: [String: HostClass] = [:]
        for domain in domains {
            let host = domain.host.lowercased()
            let admin = adminHosts.contains(host)
            if domain.isLinkDomain {
                classes[host] = admin ? adminLinks : links
            } else if !admin {
                // An admin host with links off is simply an admin host (it serves its well-known files too).
                classes[host] = classes[host] ?? documents
            }
        }
        return classes
    }
}
