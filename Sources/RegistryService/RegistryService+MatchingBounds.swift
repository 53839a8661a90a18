import RouteCore
import RouteStore

extension RegistryService {
    /// Refuses routes of `app` (each with its field in the request, `route` or `routes[i]`) when, on a domain
    /// they apply to, that domain's substitution variables take one of their patterns over the matching
    /// bound (`ModelValidation.substitutionBound`), or the app's routes there over the per-app total
    /// (`substitutionTotal`). Patterns without `$(` cost nothing to check, so ordinary writes read no domains.
    func checkSubstitutionBound(_ routes: [(route: Route, field: String)], app: String, in tx: Transaction) throws {
        let candidates = routes.filter { entry in
            let pattern = entry.route.pattern
            return pattern.scheme == nil
                && ([pattern.path, pattern.fragment].contains { $0?.contains("$(") == true }
                    || Self.queryTexts(pattern.query).contains { $0.contains("$(") })
        }
        guard !candidates.isEmpty else { return }
        // The app's routes as they will be after the write, read once, for the per-app total.
        var after: [Route]?
        for stored in try store.domains.all(in: tx) {
            let domain = stored.value
            // An alias serves its target's rules with the target's variables, checked on the target.
            guard domain.aliasOf == nil, domain.apps.contains(app), let variables = domain.substitutionVariables,
                !variables.isEmpty
            else { continue }
            let applying = candidates.filter { ModelValidation.applies($0.route, on: domain.host) }
            for (route, field) in applying {
                try ModelValidation.substitutionBound(route, variables: variables, host: domain.host, field: field)
            }
            guard let first = applying.first else { continue }
            if after == nil {
                let written = Set(routes.map(\.route.id))
                after =
                    try store.routes.all(app: app, in: tx).map(\.value).filter { !written.contains($0.id) }
                    + routes.map(\.route)
            }
            try ModelValidation.substitutionTotal(
                after!.filter { ModelValidation.applies($0, on: domain.host) }, app: app, variables: variables,
                host: domain.host, field: "\(first.field).pattern")
        }
    }

    /// Refuses a new domain whose substitution variables would take a route already written for one of its
    /// apps over the matching bound.
    func checkSubstitutionBound(_ domain: Domain, in tx: Transaction) throws {
        guard let variables = domain.substitutionVariables, !variables.isEmpty, domain.aliasOf == nil else { return }
        var routes: [(app: String, route: Route)] = []
        for app in domain.apps {
            routes += try store.routes.all(app: app, in: tx).map { (app, $0.value) }
        }
        try ModelValidation.substitutionBound(domain, routes: routes)
    }

    private static func queryTexts(_ query: QueryPattern?) -> [String] {
        switch query {
        case nil: return []
        case .string(let text)?: return [text]
        case .items(let items)?: return Array(items.values)
        }
    }
}
