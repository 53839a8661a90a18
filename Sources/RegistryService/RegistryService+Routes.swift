import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    static func resource(
        _ stored: Stored<Route>, app: String, position: Int, managedBy: StoredRouteManagement? = nil
    ) -> RouteResource {
        RouteResource(
            route: stored.value, app: app, position: position,
            meta: stored.meta(named: .route(app: app, id: stored.value.id)),
            managedBy: managedBy.map { RouteManagement(source: $0.source, applyTime: Timestamp.string($0.appliedAt)) })
    }

    /// The route as the API shows it, with its current position (counted by the store: decoding every route
    /// of the app to find one position made each route write O(routes)).
    private func routeResource(app: String, id: String, in tx: Transaction) throws -> RouteResource {
        let stored = try existingRoute(app: app, id: id, in: tx)
        let position = try store.routes.position(app: app, id: id, in: tx)
        return Self.resource(
            stored, app: app, position: position, managedBy: try store.routes.management(app: app, id: id, in: tx))
    }

    /// The mutation of a write that leaves `resource`'s route at its position.
    private func routeMutation(
        _ resource: RouteResource, app: String, before: Route?, after: Route
    ) -> Mutation<RouteResource> {
        Mutation(
            value: resource, before: before, after: after,
            change: .route(app: app, route: after, position: resource.position))
    }

    /// Route `id` of `app`, or NOT_FOUND naming it.
    private func existingRoute(app: String, id: String, in tx: Transaction) throws -> Stored<Route> {
        guard let stored = try store.routes.get(app: app, id: id, in: tx) else {
            throw RegistryError.notFound(.route(app: app, id: id))
        }
        return stored
    }

    /// A write of route `id` of `app`: audited under the route's name, its cause naming the route (and
    /// `detail`).
    private func writeRoute<Value: Codable & Sendable>(
        app: String, id: String, method: String, detail: String = "", by caller: Caller,
        _ body: @escaping (Transaction) throws -> Mutation<Value>
    ) throws(RegistryError) -> Value {
        try write(caller, method: method, resource: .route(app: app, id: id), about: "\(app)/\(id)\(detail)", body)
            .value
    }

    /// A write of `route` as given: refused before any transaction when the route is not valid on its own.
    private func writeRoute<Value: Codable & Sendable>(
        _ route: Route, app: String, method: String, by caller: Caller,
        _ body: @escaping (Transaction) throws -> Mutation<Value>
    ) throws(RegistryError) -> Value {
        try ModelValidation.route(route)
        return try writeRoute(app: app, id: route.id, method: method, by: caller, body)
    }

    private func requireApp(_ app: String, in tx: Transaction) throws {
        if try store.apps.get(app, in: tx) == nil { throw RegistryError.notFound(.app(app)) }
    }

    /// Refuses a `before` that names no route of `app`.
    private func requireBefore(_ before: String?, app: String, in tx: Transaction) throws {
        if let before, try store.routes.get(app: app, id: before, in: tx) == nil {
            var error = RegistryError.notFound(.route(app: app, id: before))
            error.fieldViolations = [
                FieldViolation(field: "before", description: "no route \(before) in \(ResourceName.app(app))")
            ]
            throw error
        }
    }

    public func createRoute(_ route: Route, app: String, before: String?, by caller: Caller) throws(RegistryError)
        -> RouteResource
    {
        try writeRoute(route, app: app, method: API.RoutesCreate.name, by: caller) { tx in
            try self.requireApp(app, in: tx)
            try self.requireBefore(before, app: app, in: tx)
            try self.checkSubstitutionBound([(route, "route")], app: app, in: tx)
            let stored = try self.store.routes.create(route, app: app, before: before, in: tx)
            return self.routeMutation(
                try self.routeResource(app: app, id: route.id, in: tx), app: app, before: nil, after: stored.value)
        }
    }

    /// Creates `routes` in their order, before `before` or last, as one write: any refusal (a bad field, an
    /// id taken, a file over the size limit) leaves nothing behind.
    public func createRoutes(_ routes: [Route], app: String, before: String?, by caller: Caller) throws(RegistryError)
        -> API.RoutesBatchCreate.Output
    {
        try Self.validateBatch(routes)
        return try write(
            caller, method: API.RoutesBatchCreate.name, resource: .routes(app: app),
            about: "\(app) (\(routes.count) route\(routes.count == 1 ? "" : "s"))"
        ) { tx in
            try self.requireApp(app, in: tx)
            try self.requireBefore(before, app: app, in: tx)
            // One query finds the ids already taken, so the refusal can name routes[i].
            let taken = try self.store.routes.existingIDs(app: app, among: routes.map(\.id), in: tx)
            if let i = routes.firstIndex(where: { taken.contains($0.id) }) {
                var error = RegistryError.alreadyExists(.route(app: app, id: routes[i].id))
                error.fieldViolations = [FieldViolation(field: "routes[\(i)].id", description: "is taken")]
                throw error
            }
            try self.checkSubstitutionBound(
                routes.enumerated().map { ($1, "routes[\($0)]") }, app: app, in: tx)
            try self.store.routes.createMany(routes, app: app, before: before, in: tx)
            let all = try self.store.routes.all(app: app, in: tx)
            let created = Set(routes.map(\.id))
            let resources = all.enumerated().filter { created.contains($1.value.id) }.map {
                Self.resource($1, app: app, position: $0)
            }
            return Mutation(
                value: API.RoutesBatchCreate.Output(routes: resources), before: nil, after: routes,
                change: .routes(app: app, all.map(\.value)))
        }.value
    }

    /// Every route valid on its own (fields named `routes[i]…`), ids distinct, and a count the call allows.
    static func validateBatch(_ routes: [Route]) throws(RegistryError) {
        guard !routes.isEmpty, routes.count <= API.RoutesBatchCreate.maxRoutes else {
            throw .invalidArgument(
                field: "routes", "must hold 1 to \(API.RoutesBatchCreate.maxRoutes) routes (got \(routes.count))")
        }
        var first: [String: Int] = [:]
        for (i, route) in routes.enumerated() {
            try ModelValidation.route(route, field: "routes[\(i)]")
            if let earlier = first[route.id] {
                throw .invalidArgument(field: "routes[\(i)].id", "repeats routes[\(earlier)].id (\(route.id))")
            }
            first[route.id] = i
        }
    }

    public func getRoute(app: String, id: String) throws(RegistryError) -> RouteResource {
        try mapped { try store.read { tx in try routeResource(app: app, id: id, in: tx) } }
    }

    public func listRoutes(app: String, _ page: PageRequest) throws(RegistryError) -> API.RoutesList.Output {
        try mapped {
            try store.read { tx in
                try requireApp(app, in: tx)
                let all = try store.routes.all(app: app, in: tx)
                // Routes are paged by position: the token is the position of the next route.
                let start = try Self.offset(page.pageToken)
                let size = page.limit
                let slice = all.indices.dropFirst(start).prefix(size)
                let next = slice.last.map { $0 + 1 < all.count ? String($0 + 1) : "" } ?? ""
                let managed = try store.routes.management(app: app, in: tx)
                return API.RoutesList.Output(
                    items: slice.map {
                        Self.resource(all[$0], app: app, position: $0, managedBy: managed[all[$0].value.id])
                    },
                    nextPageToken: next)
            }
        }
    }

    static func offset(_ token: String?) throws -> Int {
        guard let token, !token.isEmpty else { return 0 }
        guard let value = Int(token), value >= 0 else {
            throw RegistryError.invalidArgument(field: "pageToken", "is not a token this server issued")
        }
        return value
    }

    public func updateRoute(_ route: Route, app: String, etag: String?, by caller: Caller) throws(RegistryError)
        -> RouteResource
    {
        try writeRoute(route, app: app, method: API.RoutesUpdate.name, by: caller) { tx in
            let before = try self.existingRoute(app: app, id: route.id, in: tx)
            try self.checkSubstitutionBound([(route, "route")], app: app, in: tx)
            var updated = route
            // Switch-offs are managed by SwitchOff/SwitchOn only, so an update never revives a killed version.
            updated.switchedOff = before.value.switchedOff
            let stored = try self.store.routes.update(updated, app: app, expectedEtag: etag, in: tx)
            return self.routeMutation(
                try self.routeResource(app: app, id: route.id, in: tx), app: app, before: before.value,
                after: stored.value)
        }
    }

    public func deleteRoute(app: String, id: String, etag: String?, by caller: Caller) throws(RegistryError) {
        _ = try writeRoute(app: app, id: id, method: API.RoutesDelete.name, by: caller) { tx in
            let stored = try self.store.routes.delete(app: app, id: id, expectedEtag: etag, in: tx)
            return Mutation(value: Empty(), before: stored.value, after: nil, change: .routeRemoved(app: app, id: id))
        }
    }

    public func reorderRoutes(app: String, order: [String], by caller: Caller) throws(RegistryError) -> [RouteResource]
    {
        try write(
            caller, method: API.RoutesReorder.name, resource: .routes(app: app), about: app
        ) {
            tx in
            try self.requireApp(app, in: tx)
            let current = try self.store.routes.all(app: app, in: tx).map(\.value.id)
            guard order.count == current.count, Set(order) == Set(current) else {
                throw RegistryError.invalidArgument(
                    field: "order",
                    "must list every route of \(ResourceName.app(app)) exactly once (\(current.count) routes)")
            }
            let stored = try self.store.routes.reorder(app: app, ids: order, in: tx)
            let managed = try self.store.routes.management(app: app, in: tx)
            return Mutation(
                value: stored.enumerated().map {
                    Self.resource($1, app: app, position: $0, managedBy: managed[$1.value.id])
                }, before: current,
                after: order)
        }.value
    }

    public func switchRoute(
        off: Bool, app: String, id: String, platform: Platform, versions: [Version], reason: String?, by caller: Caller
    ) throws(RegistryError) -> RouteResource {
        guard !versions.isEmpty else {
            throw RegistryError.invalidArgument(field: "versions", "must name at least one version")
        }
        let method = off ? API.RoutesSwitchOff.name : API.RoutesSwitchOn.name
        let list = versions.map(\.description).joined(separator: ",")
        return try writeRoute(
            app: app, id: id, method: method, detail: " \(platform.rawValue) \(list)", by: caller
        ) { tx in
            let before = try self.existingRoute(app: app, id: id, in: tx)
            let stored =
                off
                ? try self.store.routes.switchOff(
                    app: app, id: id, platform: platform, versions: versions, reason: reason, in: tx)
                : try self.store.routes.switchOn(app: app, id: id, platform: platform, versions: versions, in: tx)
            return self.routeMutation(
                try self.routeResource(app: app, id: id, in: tx), app: app, before: before.value, after: stored.value)
        }
    }
}
