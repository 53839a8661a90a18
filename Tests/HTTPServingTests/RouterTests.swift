import Synchronization
import Testing

@testable import HTTPServing

/// The router alone: literal paths, parameters, suffixed parameters and `*`, their precedence, one 404 and
/// one 405 naming what is allowed, and routes bound to a class of hosts.
@Suite("Router")
struct RouterTests {
    private func router() -> Router {
        var router = Router(classify: { $0.hasPrefix("go.") ? HostClass("links") : .any })
        router.post("/rpc", label: "rpc") { _ in .respond(.text(200, "rpc")) }
        router.get("/canopen/v1/{app}/{platform}/{version}.json", label: "table") { _ in .respond(.text(200, "t")) }
        router.get("/canopen/v1/*", label: "usage") { _ in .respond(.text(404, "u")) }
        router.get("/console", label: "console") { _ in .respond(.text(200, "c")) }
        router.get("/console/*", label: "console-files") { _ in .respond(.text(200, "f")) }
        router.get("/{code}", host: HostClass("links"), label: "link") { _ in .respond(.text(302, "l")) }
        return router
    }

    private func label(_ method: String, _ path: String, host: String = "m.example.com") -> String {
        switch router().resolve(method: method, path: path, host: { host }).0 {
        case .route(let route): route.label
        case .methodNotAllowed(let allow): "405 \(allow)"
        case .notFound: "404"
        }
    }

    @Test func literalsParametersAndRest() {
        #expect(label("POST", "/rpc") == "rpc")
        #expect(label("GET", "/canopen/v1/badoo/ios/5.11.0.json") == "table")
        #expect(label("GET", "/canopen/v1/badoo/ios/5.11.0") == "usage")
        #expect(label("GET", "/canopen/v1/badoo/ios/5.11.0.json/more") == "usage")
        #expect(label("GET", "/console") == "console")
        #expect(label("HEAD", "/console/") == "console-files")
        #expect(label("GET", "/console/v/abc/app.js") == "console-files")
        #expect(label("GET", "/consoles") == "404")
        #expect(label("GET", "/") == "404")
    }

    @Test func theParametersAreReadByName() {
        let (resolution, parameters) = router().resolve(
            method: "GET", path: "/canopen/v1/badoo/android/5.12.json", host: { "" })
        guard case .route(let route) = resolution else {
            Issue.record("not routed")
            return
        }
        #expect(route.label == "table")
        #expect(parameters.all == ["app": "badoo", "platform": "android", "version": "5.12"])
        #expect(parameters["app"] == "badoo" && parameters["nothing"] == nil)
    }

    @Test func aKnownPathWithAnotherMethodIs405NamingTheMethods() {
        #expect(label("GET", "/rpc") == "405 POST")
        #expect(label("POST", "/console") == "405 GET, HEAD")
        #expect(label("DELETE", "/canopen/v1/a/ios/1.json") == "405 GET, HEAD")
    }

    @Test func hostClassesKeepRoutesToTheirHosts() {
        #expect(label("GET", "/summer", host: "go.badoo.com") == "link")
        #expect(label("GET", "/summer", host: "m.badoo.com") == "404")
        #expect(label("POST", "/rpc", host: "go.badoo.com") == "rpc")
    }

    @Test("a route on several host classes answers on each of them, and the host is classified once")
    func routesOnSeveralClasses() {
        let admin = HostClass("admin")
        let links = HostClass("links")
        let both = HostClass("admin+links")
        let asked = Counter()
        var router = Router(classify: { host in
            asked.increment()
            return host == "go.badoo.com"
                ? links : host == "go2.badoo.com" ? both : host == "m.badoo.com" ? .any : admin
        })
        router.post("/rpc", hosts: [admin, both], label: "rpc") { _ in .respond(.text(200, "rpc")) }
        router.get("/{code}", hosts: [links, both], label: "link") { _ in .respond(.text(302, "l")) }
        router.get("/healthz", label: "health") { _ in .respond(.text(200, "ok")) }
        func label(_ method: String, _ path: String, _ host: String) -> String {
            switch router.resolve(method: method, path: path, host: { host }).0 {
            case .route(let route): route.label
            case .methodNotAllowed(let allow): "405 \(allow)"
            case .notFound: "404"
            }
        }
        #expect(label("POST", "/rpc", "api.badoo.com") == "rpc")
        #expect(label("POST", "/rpc", "go2.badoo.com") == "rpc")
        #expect(label("GET", "/summer", "go2.badoo.com") == "link")
        #expect(label("POST", "/rpc", "go.badoo.com") == "405 GET, HEAD")
        #expect(label("GET", "/summer", "go.badoo.com") == "link")
        #expect(label("POST", "/rpc", "m.badoo.com") == "404")
        #expect(label("GET", "/summer", "api.badoo.com") == "404")
        let before = asked.value
        #expect(label("GET", "/healthz", "go.badoo.com") == "health")
        #expect(asked.value == before, "a route on every host needs no class")
        _ = label("POST", "/rpc", "go.badoo.com")
        #expect(asked.value == before + 1, "one classification per request")
    }

    @Test func allowNamesEachMethodOnce() {
        #expect(Router.allowHeader(["GET", "HEAD", "GET", "POST"]) == "GET, HEAD, POST")
    }
}

/// Counts calls from the router's classifier.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
