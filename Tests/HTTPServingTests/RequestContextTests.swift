import Foundation
import Synchronization
import Testing

@testable import HTTPServing

/// `RequestContext` alone: typed keys, their defaults, many values, value semantics.
@Suite("Request context")
struct RequestContextTests {
    enum Name: RequestContextKey { static var defaultValue: String? { nil } }
    enum Nickname: RequestContextKey { static var defaultValue: String? { nil } }
    enum Count: RequestContextKey { static var defaultValue: Int { -1 } }
    enum Tags: RequestContextKey { static var defaultValue: [String] { ["none"] } }
    enum Level: RequestContextKey { static var defaultValue: Double { 0.5 } }
    enum Flag: RequestContextKey { static var defaultValue: Bool { false } }
    /// Larger than an existential's inline buffer: kept boxed.
    struct Wide: Sendable, Equatable {
        var a = 0, b = 0, c = 0, d = 0, e = 0
    }
    enum WideKey: RequestContextKey { static var defaultValue: Wide { Wide() } }

    @Test("a key never stored reads its default")
    func absentKeysReadTheirDefaults() throws {
        var context = RequestContext()
        #expect(context[Name.self] == nil)
        #expect(context[Count.self] == -1)
        #expect(context[Tags.self] == ["none"])
        #expect(context.bearerToken == nil && context.loggedCalls.isEmpty)
        #expect(try context.deadline.get() == nil)
        context[Name.self] = "ada"
        #expect(context[Nickname.self] == nil, "another key of the same type is another slot")
        #expect(context[Count.self] == -1)
    }

    @Test("a stored value reads back as itself, and storing again replaces it")
    func storedValuesReadBack() {
        var context = RequestContext()
        context[Name.self] = "ada"
        context[Nickname.self] = "countess"
        context[Count.self] = 3
        #expect(context[Name.self] == "ada" && context[Nickname.self] == "countess" && context[Count.self] == 3)
        context[Name.self] = "grace"
        context[Count.self] = 4
        #expect(context[Name.self] == "grace" && context[Nickname.self] == "countess" && context[Count.self] == 4)
        context[Nickname.self] = nil
        #expect(context[Nickname.self] == nil && context[Name.self] == "grace")
    }

    @Test("many values of many types are kept apart, read and replaced")
    func manyValues() {
        var context = RequestContext()
        context[Name.self] = "ada"
        context[Nickname.self] = "countess"
        context[Count.self] = 1
        context[Tags.self] = ["a", "b"]
        context[Level.self] = 0.25
        context[Flag.self] = true
        context[WideKey.self] = Wide(a: 1, e: 5)
        #expect(context[Name.self] == "ada" && context[Nickname.self] == "countess" && context[Count.self] == 1)
        #expect(context[Tags.self] == ["a", "b"] && context[Level.self] == 0.25 && context[Flag.self])
        #expect(context[WideKey.self] == Wide(a: 1, e: 5))
        context[Flag.self] = false
        context[WideKey.self] = Wide(b: 2)
        context[Name.self] = "grace"
        #expect(!context[Flag.self] && context[WideKey.self] == Wide(b: 2) && context[Name.self] == "grace")
        #expect(context[Level.self] == 0.25 && context[Tags.self] == ["a", "b"])
    }

    @Test("a context is a value: a copy changed leaves the original as it was")
    func valueSemantics() {
        var original = RequestContext()
        original[Name.self] = "ada"
        var copy = original
        copy[Name.self] = "grace"
        copy[Count.self] = 9
        #expect(original[Name.self] == "ada" && original[Count.self] == -1)
        #expect(copy[Name.self] == "grace" && copy[Count.self] == 9)
    }
}

/// The context through a real server on loopback: what middleware store, the responder reads; what none
/// stored reads as its default; what the responder stores, the request log writes.
@Suite("Request context on a server")
struct RequestContextServerTests {
    enum Stamp: RequestContextKey { static var defaultValue: String? { nil } }

    /// Stores `X-Stamp` (or "stamped") under `Stamp`.
    struct StampMiddleware: HTTPMiddleware {
        var hooks: HTTPMiddlewareHooks { [.respond] }

        func respond(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
            request.context[Stamp.self] = request.header("X-Stamp") ?? "stamped"
            return next(request)
        }
    }

    final class Lines: Sendable {
        let all = Mutex<[String]>([])

        /// The lines logged for `path`, waiting up to 10 s for `count` of them (a line is written once the
        /// answer was sent).
        func waitFor(_ count: Int, of path: String) -> [String] {
            let started = ContinuousClock.now
            while true {
                let found = all.withLock { $0.filter { $0.contains(#""path":"\#(path)""#) } }
                if found.count >= count || ContinuousClock.now - started > .seconds(10) { return found }
                usleep(5_000)
            }
        }
    }

    static func server(log: RequestLog = .silent) throws -> HTTPServer {
        var router = Router()
        let describe: HTTPResponder = { request in
            let stamp = request.context[Stamp.self] ?? "none"
            let token = request.context.bearerToken ?? "none"
            let deadline: String
            switch request.context.deadline {
            case .success(nil): deadline = "none"
            case .success(let instant?):
                deadline = instant > .now && instant <= .now + .seconds(5) ? "within 5 s" : "wrong: \(instant)"
            case .failure(let refusal): deadline = "refused (\(refusal.header))"
            }
            return .respond(.text(200, "stamp=\(stamp) token=\(token) deadline=\(deadline)"))
        }
        router.get("/stamped", label: "stamped", middleware: [StampMiddleware()], describe)
        router.get("/plain", label: "plain", describe)
        router.get(
            "/credentials", label: "credentials", middleware: [DeadlineMiddleware(), BearerCredentials()], describe)
        router.get("/logged", label: "logged") { request in
            if request.header("X-Calls") != nil { request.context.loggedCalls = ["Apps.List", "Routes.Get"] }
            return .respond(.text(200, "ok"))
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), router: router,
            log: log)
        try server.start()
        return server
    }

    @Test("what a route's middleware stores, its responder reads; a route without it reads the default")
    func middlewareToResponder() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(
            try LoopbackGet(port: server.port, "/stamped", headers: [("X-Stamp", "s1")]).body.hasPrefix("stamp=s1 "))
        #expect(try LoopbackGet(port: server.port, "/stamped").body.hasPrefix("stamp=stamped "))
        // The same header on a route without the middleware: nothing stored, and nothing left from the last request.
        let plain = try LoopbackGet(port: server.port, "/plain", headers: [("X-Stamp", "s1")])
        #expect(plain.status == 200 && plain.body == "stamp=none token=none deadline=none")
    }

    @Test("the deadline and bearer token middleware store what the headers say, and nothing without them")
    func deadlineAndBearerToken() throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = server.port
        #expect(try LoopbackGet(port: port, "/credentials").body == "stamp=none token=none deadline=none")
        let both = try LoopbackGet(
            port: port, "/credentials", headers: [("Authorization", "Bearer abc"), ("X-Request-Timeout-Ms", "5000")])
        #expect(both.body == "stamp=none token=abc deadline=within 5 s")
        let malformed = try LoopbackGet(
            port: port, "/credentials", headers: [("Authorization", "Basic abc"), ("X-Request-Timeout-Ms", "soon")])
        #expect(malformed.body == "stamp=none token=none deadline=refused (X-Request-Timeout-Ms)")
        // Read only where the route asks for the middleware.
        let plain = try LoopbackGet(
            port: port, "/plain", headers: [("Authorization", "Bearer abc"), ("X-Request-Timeout-Ms", "5000")])
        #expect(plain.body == "stamp=none token=none deadline=none")
    }

    @Test("the calls a responder stores are written in the request's log line, and no rpc key without them")
    func loggedCalls() throws {
        let lines = Lines()
        let server = try Self.server(log: .custom { line in lines.all.withLock { $0.append(line) } })
        defer { server.stop() }
        #expect(try LoopbackGet(port: server.port, "/logged", headers: [("X-Calls", "1")]).status == 200)
        #expect(try LoopbackGet(port: server.port, "/logged").status == 200)
        let logged = lines.waitFor(2, of: "/logged")
        try #require(logged.count == 2, "\(logged)")
        #expect(logged.filter { $0.contains(#""rpc":["Apps.List","Routes.Get"]"#) }.count == 1, "\(logged)")
        #expect(logged.filter { !$0.contains(#""rpc""#) }.count == 1, "\(logged)")
    }
}
