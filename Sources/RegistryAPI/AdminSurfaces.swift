import HTTPServing

/// Where and to whom the admin surfaces answer (`routereg serve --admin-hosts`, `--metrics-token-file`).
///
/// `/rpc`, `/console/` and `/metrics` answer on every host that is not one of the registry's domains (the
/// API's own name, `localhost`, an address) and, on a registry domain, only when it is named in
/// `adminHosts`; elsewhere they answer as an unknown path does (`RegistryHostClasses`). `/metrics` also needs
/// the metrics token, or a loopback client without one (`MetricsAccess`). `/healthz`, `/livez`, `/readyz`
/// and `/version` stay public everywhere: they name no tenant's data.
public struct AdminSurfaces: Sendable {
    /// Registry domains where the admin surfaces answer anyway, normalized (lower case, no port, no dot).
    public var adminHosts: Set<String>
    /// The bearer token `/metrics` requires; nil: loopback clients only.
    public var metricsToken: String?

    public init(adminHosts: [String] = [], metricsToken: String? = nil) {
        self.adminHosts = Set(adminHosts.map { HostName.normalize($0) }.filter { !$0.isEmpty })
        self.metricsToken = metricsToken
    }
}
