/// Where requests go: built once at start from `(methods, host class, path pattern) → responder`, then only
/// read. The transport resolves a request's route from its head, before any body, so a route decides
/// whether a body is kept and which label its metrics carry.
///
/// ```swift
/// var router = Router()
/// router.get("/version", label: "version") { _ in .respond(.json(versionBytes)) }
/// ```
/// Patterns are `/`-separated segments: a literal (`rpc`), a parameter (`{app}`), a parameter with a literal
/// suffix (`{version}.json`), or a final `*` matching the rest of the path (none included). A literal
/// segment wins over a parameter, and a parameter over `*`. A path no route matches is one 404; a path some
/// route matches with another method is one 405 naming the methods allowed.
public struct Router: Sendable {
    /// A registered route (a class: a request holds it by one reference, not a copy of its fields).
    public final class Route: Sendable {
        /// The methods it answers (a GET route answers HEAD too).
        public let methods: [String]
        /// The classes of `Host` it answers on (`[.any]`: every host).
        public let hostClasses: [HostClass]
        /// Whether it answers on every host (no class to compute).
        let anyHost: Bool
        /// The metrics label of its requests (`routereg_http_requests_total{handler=…}`).
        public let label: String
        /// Whether the request body is kept for the responder (else counted and dropped).
        public let takesBody: Bool
        /// Middleware of this route only, run inside the server's.
        public let middleware: [any HTTPMiddleware]
        public let responder: HTTPResponder
        let pattern: RoutePattern

        init(
            methods: [String], hostClasses: [HostClass], label: String, takesBody: Bool,
            middleware: [any HTTPMiddleware],
            responder: @escaping HTTPResponder, pattern: RoutePattern
        ) {
            self.methods = methods
            self.hostClasses = hostClasses
            self.anyHost = hostClasses.contains(.any)
            self.label = label
            self.takesBody = takesBody
            self.middleware = middleware
            self.responder = responder
            self.pattern = pattern
        }
    }

    /// What a request's head resolves to.
    enum Resolution {
        case route(Route)
        case methodNotAllowed(allow: String)
        case notFound
    }

    /// Routes of literal paths, by the path's length in bytes: a lookup compares the few paths of its length,
    /// where a dictionary would first hash the whole path (a third of routing a well-known file).
    private var exact: [[(path: String, routes: [Route])]] = []
    private var patterned: [Route] = []
    /// By the byte after a path's leading `/` (256: none), the patterned routes that can match it, in
    /// `patterned`'s order: a path tries only those (a short link's path skips every `/canopen/…` pattern).
    private var candidates: [[Route]] = Array(repeating: [], count: 257)
    /// Middleware every request passes, outermost first (after the server's own).
    public private(set) var middleware: [any HTTPMiddleware] = []
    private let classify: @Sendable (String) -> HostClass

    /// - Parameter classify: the class of a normalized `Host` (`links` for the short-link domains); asked
    ///   only when some route is bound to a class other than `.any`.
    public init(classify: @escaping @Sendable (String) -> HostClass = { _ in .any }) {
        self.classify = classify
    }

    /// Adds middleware that wraps every route.
    public mutating func use(_ middleware: any HTTPMiddleware) { self.middleware.append(middleware) }

    /// Registers `responder` for `methods` on `pattern`, on hosts of class `host`.
    public mutating func add(
        _ methods: [String], _ pattern: String, host: HostClass = .any, label: String, takesBody: Bool = false,
        middleware: [any HTTPMiddleware] = [], _ responder: @escaping HTTPResponder
    ) {
        add(
            methods, pattern, hosts: [host], label: label, takesBody: takesBody, middleware: middleware, responder)
    }

    /// Registers `responder` for `methods` on `pattern`, on hosts of any of the classes `hosts`.
    public mutating func add(
        _ methods: [String], _ pattern: String, hosts: [HostClass], label: String, takesBody: Bool = false,
        middleware: [any HTTPMiddleware] = [], _ responder: @escaping HTTPResponder
    ) {
        let compiled = RoutePattern(pattern)
        var methods = methods
        if methods.contains("GET") && !methods.contains("HEAD") { methods.append("HEAD") }
        let route = Route(
            methods: methods, hostClasses: hosts, label: label, takesBody: takesBody, middleware: middleware,
            responder: responder, pattern: compiled)
        if let literal = compiled.literalPath {
            let length = literal.utf8.count
            if exact.count <= length { exact += Array(repeating: [], count: length + 1 - exact.count) }
            if let index = exact[length].firstIndex(where: { $0.path == literal }) {
                exact[length][index].routes.append(route)
            } else {
                exact[length].append((literal, [route]))
            }
        } else {
            patterned.append(route)
            patterned.sort { $0.pattern.precedes($1.pattern) }
            candidates = (0...256).map { index in
                patterned.filter { route in route.pattern.firstByte.map { Int($0) == index } ?? true }
            }
        }
    }

    /// Registers a GET (and HEAD) route.
    public mutating func get(
        _ pattern: String, host: HostClass = .any, label: String, middleware: [any HTTPMiddleware] = [],
        _ responder: @escaping HTTPResponder
    ) {
        add(["GET"], pattern, hosts: [host], label: label, middleware: middleware, responder)
    }

    /// Registers a GET (and HEAD) route on hosts of any of the classes `hosts`.
    public mutating func get(
        _ pattern: String, hosts: [HostClass], label: String, middleware: [any HTTPMiddleware] = [],
        _ responder: @escaping HTTPResponder
    ) {
        add(["GET"], pattern, hosts: hosts, label: label, middleware: middleware, responder)
    }

    /// Registers a POST route, whose body is kept for the responder, on hosts of any of the classes `hosts`.
    public mutating func post(
        _ pattern: String, hosts: [HostClass] = [.any], label: String, middleware: [any HTTPMiddleware] = [],
        _ responder: @escaping HTTPResponder
    ) {
        add(["POST"], pattern, hosts: hosts, label: label, takesBody: true, middleware: middleware, responder)
    }

    /// The route for a request's head, with its path parameters.
    func resolve(method: String, path: String, host: () -> String) -> (Resolution, RouteParameters) {
        // The host is classified only when a route bound to a class is a candidate, and at most once, so the
        // well-known files never pay for it and a short link or /rpc pays one lookup.
        var classified: HostClass?
        func matches(_ route: Route) -> Bool {
            guard !route.anyHost else { return true }
            if classified == nil { classified = classify(host()) }
            return route.hostClasses.contains(classified!)
        }
        var allowed: [String] = []
        if let routes = literalRoutes(path) {
            for route in routes where matches(route) {
                if route.methods.contains(method) { return (.route(route), .none) }
                allowed += route.methods
            }
        }
        if !patterned.isEmpty {
            for route in candidates[RoutePattern.firstByteIndex(of: path)] where matches(route) {
                guard let parameters = route.pattern.match(path) else { continue }
                if route.methods.contains(method) { return (.route(route), parameters) }
                allowed += route.methods
            }
        }
        guard allowed.isEmpty else { return (.methodNotAllowed(allow: Self.allowHeader(allowed)), .none) }
        return (.notFound, .none)
    }

    /// The routes registered for exactly `path`.
    private func literalRoutes(_ path: String) -> [Route]? {
        let length = path.utf8.count
        guard length < exact.count else { return nil }
        for entry in exact[length] where entry.path == path { return entry.routes }
        return nil
    }

    /// `GET, HEAD, POST`: each method once, in a stable order.
    static func allowHeader(_ methods: [String]) -> String {
        var seen: [String] = []
        for method in methods where !seen.contains(method) { seen.append(method) }
        return seen.joined(separator: ", ")
    }
}

/// A class of `Host` names that share routes: `.any` for every host, or one the application names (the
/// short-link domains).
public struct HostClass: Sendable, Hashable {
    public let name: String

    public init(_ name: String) { self.name = name }

    /// Every host.
    public static let any = HostClass("*")
}

/// Answers a request: now, or later through `request.deferral()`.
public typealias HTTPResponder = @Sendable (HTTPRequest) -> HTTPAnswer

/// A responder's answer.
public enum HTTPAnswer: Sendable {
    /// This response, now.
    case respond(HTTPResponse)
    /// Later, through the function `request.deferral()` returned; `cancel` answers at once when the server
    /// stops first.
    case later(cancel: @Sendable () -> Void)
}
