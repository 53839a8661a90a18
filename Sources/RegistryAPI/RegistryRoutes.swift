import HTTPServing
import JSONRPC
import RegistryConsole
import RouteCore

/// Every path the server answers, registered on its router: the one file that names them. Adding an
/// endpoint is one registration here.
enum RegistryRoutes {
    /// Where the web console is mounted.
    static let console = "/console"

    /// What the routes answer with.
    struct Endpoints {
        var rpc: JSONRPCEndpoint
        var wellKnown: RegistryDocuments? = nil
        var tables: CanOpenTableDocuments? = nil
        var console: ConsoleDocuments? = nil
        var links: ShortLinkPages? = nil
        /// The links' QR codes, on the same hosts.
        var qrCodes: ShortLinkQRCodes? = nil
        /// The class of each host (admin surfaces, link domains); nil: every route answers on every host.
        var hostClasses: RegistryHostClasses? = nil
        /// The token `/metrics` requires (nil: loopback clients only).
        var metricsToken: String? = nil
        var readiness: @Sendable () -> Bool
        var metrics: ServerMetrics
        var build: BuildInfo
    }

    /// The routes of a registry server.
    static func router(_ endpoints: Endpoints) -> Router {
        let hostClasses = endpoints.hostClasses
        var router = Router(classify: { host in hostClasses?.classify(host) ?? .any })
        // Without a classifier every host is an admin host (and short links answer nowhere).
        let admin = hostClasses == nil ? [HostClass.any] : RegistryHostClasses.adminRoutes
        registerOperations(on: &router, endpoints, admin: admin)
        if let documents = endpoints.wellKnown {
            router.get("/.well-known/apple-app-site-association", label: "static") {
                .respond(documents.respond(.aasa, $0))
            }
            router.get("/apple-app-site-association", label: "static") { .respond(documents.respond(.aasa, $0)) }
            router.get("/.well-known/assetlinks.json", label: "static") {
                .respond(documents.respond(.assetlinks, $0))
            }
        }
        if let tables = endpoints.tables {
            let pattern = "/canopen/v1/{app}/{platform}/{version}.json"
            router.get(pattern, label: "static") { request in
                let table = tables.lookup(
                    app: request.parameters["app"] ?? "", platform: request.parameters["platform"] ?? "",
                    version: request.parameters["version"] ?? "")
                return .respond(table.response(to: request))
            }
            router.get("/canopen/v1/*", label: "other") { _ in
                .respond(.text(404, "not found: expected \(pattern)\n"))
            }
        }
        if let links = endpoints.links, hostClasses != nil {
            // Only on link domains: a short link, and an FDL-style long link.
            let hosts = RegistryHostClasses.linkRoutes
            router.get("/{code}", hosts: hosts, label: "link") {
                .respond(links.respond(code: $0.parameters["code"] ?? "", $0))
            }
            if let codes = endpoints.qrCodes {
                router.get("/{code}/qr.svg", hosts: hosts, label: "link") {
                    .respond(codes.respond(code: $0.parameters["code"] ?? "", format: .svg, $0))
                }
                router.get("/{code}/qr.png", hosts: hosts, label: "link") {
                    .respond(codes.respond(code: $0.parameters["code"] ?? "", format: .png, $0))
                }
            }
            router.get("/", hosts: hosts, label: "link") { .respond(links.respondLongLink($0)) }
        }
        if let console = endpoints.console {
            router.get(Self.console, hosts: admin, label: "static", DocumentLookup.responder(console))
            router.get(Self.console + "/*", hosts: admin, label: "static", DocumentLookup.responder(console))
        }
        return router
    }

    /// The routes every server of the registry's protocol has: JSON-RPC, health, metrics, its build. The API
    /// and the metrics answer on hosts of the classes `admin`; health and the build on every host (they name
    /// no tenant's data).
    static func registerOperations(on router: inout Router, _ endpoints: Endpoints, admin: [HostClass]) {
        let rpc = endpoints.rpc
        router.post("/rpc", hosts: admin, label: "rpc", middleware: JSONRPCEndpoint.middleware) { rpc.respond($0) }
        router.get("/healthz", label: "healthz") { _ in .respond(.text(200, "ok\n")) }
        router.get("/livez", label: "healthz") { _ in .respond(.text(200, "ok\n")) }
        let readiness = endpoints.readiness
        router.get("/readyz", label: "readyz") { _ in
            .respond(readiness() ? .text(200, "ready\n") : .text(503, "not ready\n"))
        }
        let metrics = endpoints.metrics
        router.get(
            "/metrics", hosts: admin, label: "metrics", middleware: [MetricsAccess(token: endpoints.metricsToken)]
        ) { _ in
            .respond(
                HTTPResponse(
                    status: 200, body: Array(metrics.render().utf8),
                    contentType: "text/plain; version=0.0.4; charset=utf-8"))
        }
        let build = endpoints.build.json
        router.get("/version", label: "version") { _ in
            .respond(HTTPResponse(status: 200, body: build, contentType: "application/json"))
        }
    }
}
