extension ManifestPlan {
    /// The changes that would make the registry (`state`) hold what `manifest` says: the app, then domains in
    /// the manifest's order, then routes in evaluation order (each added, changed or moved). Routes and
    /// domains only the registry has are listed in `notInManifest`; with `prune`, those of the routes a manifest
    /// manages become removals (domains are never removed by a manifest: other apps may share them).
    public init(manifest: Manifest, state: ManifestState, prune: Bool = false) {
        var changes: [Change] = []
        let appID = manifest.app.id
        if let current = state.app?.value {
            let fields = Self.diff(Self.json(current), Self.json(manifest.app), at: "")
            if !fields.isEmpty { changes.append(Change(action: .change, kind: .app, id: appID, fields: fields)) }
        } else {
            changes.append(Change(action: .add, kind: .app, id: appID))
        }

        var unmanaged: [Unmanaged] = []
        let wanted = Set(manifest.domains.map { $0.host.lowercased() })
        var domains: [String: ManifestDomain] = [:]
        for resource in state.domains { domains[resource.value.host.lowercased()] = ManifestDomain(resource.value) }
        for domain in manifest.domains {
            guard let current = domains[domain.host.lowercased()] else {
                changes.append(Change(action: .add, kind: .domain, id: domain.host))
                continue
            }
            let fields = Self.diff(Self.json(current), Self.json(domain), at: "")
            if !fields.isEmpty {
                changes.append(Change(action: .change, kind: .domain, id: domain.host, fields: fields))
            }
        }
        for resource in state.domains where !wanted.contains(resource.value.host.lowercased()) {
            unmanaged.append(Unmanaged(kind: .domain, id: resource.value.host))
        }

        changes += Self.routeChanges(manifest.routes, state.routes.map(\.route))
        let kept = Set(manifest.routes.map(\.id))
        for resource in state.routes where !kept.contains(resource.route.id) {
            // A prune removes only what a manifest manages: routes people added by hand stay.
            let managed = resource.managedBy != nil
            if prune && managed {
                changes.append(Change(action: .remove, kind: .route, id: resource.route.id))
            } else {
                unmanaged.append(Unmanaged(kind: .route, id: resource.route.id, managed: managed))
            }
        }
        self.init(
            basis: Basis(
                app: appID, fingerprint: state.fingerprint, appExists: state.app != nil,
                domains: state.domains.count, routes: state.routes.count),
            changes: changes, notInManifest: unmanaged, prune: prune ? true : nil)
    }

    /// Adds, changes and moves, in the manifest's order. A route moves when it is not among the longest run
    /// of shared routes already in the manifest's relative order, so swapping two neighbours is one move,
    /// not a shuffle of everything between them.
    static func routeChanges(_ wanted: [ManifestRoute], _ current: [Route]) -> [Change] {
        var position: [String: Int] = [:]
        var existing: [String: ManifestRoute] = [:]
        for (index, route) in current.enumerated() {
            position[route.id] = index
            existing[route.id] = ManifestRoute(route)
        }
        let shared = wanted.filter { existing[$0.id] != nil }.map(\.id)
        let staying = Set(longestIncreasing(shared.map { position[$0]! }).map { shared[$0] })
        var changes: [Change] = []
        for (index, route) in wanted.enumerated() {
            let before = index + 1 < wanted.count ? wanted[index + 1].id : nil
            guard let old = existing[route.id] else {
                changes.append(
                    Change(action: .add, kind: .route, id: route.id, before: before, summary: summary(route)))
                continue
            }
            let fields = diff(old, route)
            if !fields.isEmpty { changes.append(Change(action: .change, kind: .route, id: route.id, fields: fields)) }
            if !staying.contains(route.id) {
                changes.append(Change(action: .move, kind: .route, id: route.id, before: before))
            }
        }
        return changes
    }

    /// Indices (ascending) of a longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasing(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(index)
            index = previous[index]
        }
        return result.reversed()
    }

    /// `/l/a/* (ios 5.12.0+)`, or `/help/* (exclude)`.
    static func summary(_ route: ManifestRoute) -> String {
        if route.action == .exclude { return route.pattern.displayText + " (exclude)" }
        let ranges = Platform.allCases.compactMap { platform in
            route.platforms[platform].map { "\(platform.rawValue) \($0.displayText)" }
        }
        return route.pattern.displayText + (ranges.isEmpty ? " (no version)" : " (\(ranges.joined(separator: ", ")))")
    }

    /// A route's differing fields; versions compare as versions (`5.1` is `5.1.0`), not as text.
    static func diff(_ old: ManifestRoute, _ new: ManifestRoute) -> [FieldChange] {
        var fields = diff(json(old.pattern), json(new.pattern), at: "pattern")
        if old.action != new.action {
            fields.append(
                FieldChange(field: "action", from: .string(old.action.rawValue), to: .string(new.action.rawValue)))
        }
        for platform in Platform.allCases {
            let here = "platforms.\(platform.rawValue)"
            switch (old.platforms[platform], new.platforms[platform]) {
            case (nil, nil): break
            case (let from?, let to?):
                if from.since != to.since {
                    fields.append(FieldChange(field: here + ".since", from: version(from.since), to: version(to.since)))
                }
                if from.until != to.until {
                    fields.append(
                        FieldChange(field: here + ".until", from: from.until.map(version), to: to.until.map(version)))
                }
            case (let from, let to):
                fields.append(FieldChange(field: here, from: from.map(json), to: to.map(json)))
            }
        }
        if old.domains != new.domains {
            fields.append(FieldChange(field: "domains", from: json(old.domains), to: json(new.domains)))
        }
        if old.webFallback != new.webFallback {
            fields.append(
                FieldChange(
                    field: "webFallback", from: old.webFallback.map(JSONValue.string),
                    to: new.webFallback.map(JSONValue.string)))
        }
        if old.comment != new.comment {
            fields.append(
                FieldChange(
                    field: "comment", from: old.comment.map(JSONValue.string), to: new.comment.map(JSONValue.string)))
        }
        return fields
    }

    /// The leaves in which two JSON values differ; an absent member and `null` are the same. Arrays compare
    /// whole.
    static func diff(_ old: JSONValue?, _ new: JSONValue?, at path: String) -> [FieldChange] {
        let old = old == .null ? nil : old
        let new = new == .null ? nil : new
        if case .object(let from)? = old, case .object(let to)? = new {
            return Set(from.keys).union(to.keys).sorted().flatMap { key in
                diff(from[key], to[key], at: path.isEmpty ? key : "\(path).\(key)")
            }
        }
        return old == new ? [] : [FieldChange(field: path, from: old, to: new)]
    }

    static func version(_ version: Version) -> JSONValue { .string(version.description) }

    /// A model value as JSON; the model types always encode.
    static func json(_ value: some Encodable) -> JSONValue {
        (try? JSONValue(encoding: value)) ?? .null
    }
}
