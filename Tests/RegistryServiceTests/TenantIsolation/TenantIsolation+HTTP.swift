import Foundation
import RegistryAPI
import RegistryTesting
import Synchronization
import Testing

/// Issue 41's HTTP rows against the real server, with a second app `rt` (admin and releaser tokens scoped
/// to it) beside `badoo`: the admin surfaces are not answered on the registry's domains, `/metrics` is for
/// loopback or its token only, a click leaves no address in the request log, an error echoes nothing a
/// browser would sniff, and a request with two `Host` or two different `Content-Length` headers is refused.
@Suite(.serialized) struct TenantIsolationHTTPTests {
    /// badoo on `m.badoo.com` (well-known files only) and the link domain `go.badoo.com` with one link; rt on
    /// `rt.example.com`, with its admin and releaser tokens.
    static func seed(_ server: TestRegistryServer) async throws {
        _ = try await server.result(
            "Apps.Create", ["app": ["id": "badoo", "ios": ["appIds": ["ABCDE12345.com.badoo.Badoo"]]]])
        _ = try await server.result("Apps.Create", ["app": ["id": "rt", "ios": ["appIds": ["FGHIJ67890.com.rt.RT"]]]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "m.badoo.com", "apps": ["badoo"]]])
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "go.badoo.com", "apps": ["badoo"], "links": true]])
        _ = try await server.result("Domains.Create", ["domain": ["host": "rt.example.com", "apps": ["rt"]]])
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "badoo",
                "route": ["id": "users", "pattern": ["path": "/u/*"], "platforms": ["ios": ["since": "1.0"]]],
            ])
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "1.0.0"])
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/u/42"]])
        for role in ["admin", "releaser"] {
            _ = try await server.result(
                "Tokens.Create", ["token": ["displayName": "rt \(role)", "role": role, "apps": ["rt"]]])
        }
    }

    static let check = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#

    static func request(
        _ server: TestRegistryServer, _ method: String, _ path: String, host: String, body: String = "",
        headers: [String: String] = [:]
    ) async -> ProbeClient.Answer {
        let port = server.server.port
        return await ProbeClient.onThread {
            ProbeClient.request(port: port, method, path, host: host, body: body, headers: headers)
        }
    }

    @Test("/rpc, /console/ and /metrics answer on a link domain and a well-known domain as an unknown path does")
    func adminSurfacesStayOffTheRegistryDomains() async throws {
        let server = try TestRegistryServer(suite: "isolation_http_admin", console: true)
        defer { server.shutdown() }
        try await Self.seed(server)
        for host in ["go.badoo.com", "m.badoo.com", "GO.Badoo.com:443"] {
            let rpc = await Self.request(server, "POST", "/rpc", host: host, body: Self.check)
            let unknownPost = await Self.request(server, "POST", "/no-such-path", host: host, body: Self.check)
            #expect(rpc.status == unknownPost.status && rpc.status >= 400, "POST /rpc on \(host): \(rpc.head)")
            #expect(!rpc.body.contains("jsonrpc"))
            for path in ["/console/", "/console/index.html", "/metrics"] {
                let answer = await Self.request(server, "GET", path, host: host)
                let unknown = await Self.request(server, "GET", path + "-no-such", host: host)
                #expect(answer.status == 404 && unknown.status == 404, "GET \(path) on \(host): \(answer.head)")
                #expect(!answer.body.contains("routereg_") && !answer.body.contains("<title>routereg"))
            }
            // What devices and probes need stays public there.
            #expect(await Self.request(server, "GET", "/healthz", host: host).status == 200)
        }
        let aasa = await Self.request(server, "GET", "/.well-known/apple-app-site-association", host: "go.badoo.com")
        #expect(aasa.status == 200 && aasa.body.contains("ABCDE12345.com.badoo.Badoo"))
        let click = await Self.request(server, "GET", "/summer", host: "go.badoo.com")
        #expect(click.status == 302 || click.status == 200)
        // The API's own names (any host that is not a registry domain) keep all three.
        for host in ["localhost", "127.0.0.1", "api.badoo.com"] {
            let rpc = await Self.request(server, "POST", "/rpc", host: host, body: Self.check)
            #expect(rpc.status == 200 && rpc.body.contains("openrpc"), "POST /rpc on \(host): \(rpc.head)")
            #expect(await Self.request(server, "GET", "/console/", host: host).status == 200)
            let metrics = await Self.request(server, "GET", "/metrics", host: host)
            #expect(metrics.status == 200 && metrics.body.contains("routereg_document_revision"))
        }
    }

    @Test("--admin-hosts opens the admin surfaces on the registry domains it names, and only those")
    func adminHostsOptIn() async throws {
        let server = try TestRegistryServer(
            suite: "isolation_http_admin_hosts", console: true,
            adminSurfaces: AdminSurfaces(adminHosts: ["M.badoo.com", "go.badoo.com."]))
        defer { server.shutdown() }
        try await Self.seed(server)
        for host in ["m.badoo.com", "go.badoo.com"] {
            let rpc = await Self.request(server, "POST", "/rpc", host: host, body: Self.check)
            #expect(rpc.status == 200 && rpc.body.contains("openrpc"), "POST /rpc on \(host): \(rpc.head)")
            #expect(await Self.request(server, "GET", "/console/", host: host).status == 200)
        }
        // A link domain named there still serves its links.
        let click = await Self.request(server, "GET", "/summer", host: "go.badoo.com")
        #expect(click.status == 302 || click.status == 200)
        let other = await Self.request(server, "POST", "/rpc", host: "rt.example.com", body: Self.check)
        #expect(other.status == 404)
    }

    @Test("with a metrics token, /metrics needs it as a bearer token, even from loopback")
    func metricsToken() async throws {
        let token = "metrics-token-0123456789abcdef"
        let server = try TestRegistryServer(
            suite: "isolation_http_metrics", adminSurfaces: AdminSurfaces(metricsToken: token))
        defer { server.shutdown() }
        try await Self.seed(server)
        let bare = await Self.request(server, "GET", "/metrics", host: "localhost")
        #expect(bare.status == 401 && bare.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(!bare.body.contains("m.badoo.com") && bare.body.contains("--metrics-token-file"))
        let wrong = await Self.request(
            server, "GET", "/metrics", host: "localhost", headers: ["Authorization": "Bearer \(token)x"])
        #expect(wrong.status == 401)
        let scraped = await Self.request(
            server, "GET", "/metrics", host: "localhost", headers: ["Authorization": "Bearer \(token)"])
        #expect(scraped.status == 200 && scraped.body.contains(#"host="m.badoo.com""#))
        // Still not on a registry domain, token or not.
        let onLinks = await Self.request(
            server, "GET", "/metrics", host: "go.badoo.com", headers: ["Authorization": "Bearer \(token)"])
        #expect(onLinks.status == 404 && !onLinks.body.contains("routereg_"))
    }

    @Test("a link click leaves no client address in the request log unless --log-client-address")
    func clickLogsNoAddress() async throws {
        for logged in [false, true] {
            let lines = Lines()
            let server = try TestRegistryServer(
                suite: "isolation_http_log_\(logged)", requestLog: .custom { lines.append($0) },
                logClientAddress: logged)
            defer { server.shutdown() }
            try await Self.seed(server)
            _ = await Self.request(server, "GET", "/summer", host: "go.badoo.com")
            let deadline = ContinuousClock.now + .seconds(5)
            var click: String?
            while click == nil, ContinuousClock.now < deadline {
                click = lines.all.first { $0.contains(#""path":"/summer""#) }
                if click == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            let line = try #require(click)
            #expect(line.contains(#""remote""#) == logged, "\(line)")
            #expect(line.contains("127.0.0.1") == logged, "\(line)")
        }
    }

    @Test("the canOpen table's 404 echoes the app only escaped, as text with nosniff")
    func tableErrorIsNotSniffed() async throws {
        let server = try TestRegistryServer(suite: "isolation_http_sniff")
        defer { server.shutdown() }
        try await Self.seed(server)
        let answer = await Self.request(
            server, "GET", "/canopen/v1/%3Cimg%20src=x%20onerror=alert(1)%3E/ios/1.json", host: "localhost")
        #expect(answer.status == 404)
        #expect(answer.header("X-Content-Type-Options") == "nosniff")
        #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(!answer.body.contains("<img") && answer.body.contains(#"\u{3C}img"#), "\(answer.body)")
        let platform = await Self.request(server, "GET", "/canopen/v1/badoo/%3Cb%3E/1.json", host: "localhost")
        #expect(platform.status == 400 && platform.header("X-Content-Type-Options") == "nosniff")
        #expect(!platform.body.contains("<b>"))
        let shortLink = await Self.request(server, "GET", "/no-such-code", host: "go.badoo.com")
        #expect(shortLink.status == 404 && shortLink.header("X-Content-Type-Options") == "nosniff")
    }

    @Test("two Host headers, or two different Content-Length values, are refused 400 before anything runs")
    func ambiguousHeadsAreRefused() async throws {
        let server = try TestRegistryServer(suite: "isolation_http_strict")
        defer { server.shutdown() }
        try await Self.seed(server)
        // ProbeClient writes `Host:` itself: a `host` header is a second one.
        let twoHosts = await Self.request(
            server, "GET", "/.well-known/apple-app-site-association", host: "m.badoo.com",
            headers: ["host": "go.badoo.com"])
        #expect(twoHosts.status == 400 && twoHosts.body == "bad request: more than one Host header\n")
        #expect(twoHosts.header("X-Content-Type-Options") == "nosniff")
        let create = #"{"jsonrpc":"2.0","id":1,"method":"Apps.Create","params":{"app":{"id":"smuggled"}}}"#
        let twoLengths = await Self.request(
            server, "POST", "/rpc", host: "localhost", body: create,
            headers: [
                "content-length": "\(create.utf8.count + 7)",
                "Authorization": "Bearer \(TestRegistryServer.adminToken)",
            ])
        #expect(twoLengths.status == 400)
        #expect(twoLengths.body == "bad request: Content-Length headers with different values\n")
        let apps = try await server.result("Apps.List", [:])
        #expect(!"\(apps)".contains("smuggled"), "the refused call must not have run")
    }
}

/// The request log's lines, as the server wrote them.
private final class Lines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
