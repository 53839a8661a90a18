import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import Testing

@Suite("HTTP transport")
struct HTTPServerTests {
    @Test("starts on an ephemeral port and answers /healthz")
    func ephemeralPortAndHealth() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(server.port != 0)
        let response = try server.client().request("GET", "/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok\n")
    }

    @Test("two requests travel on one kept-alive connection")
    func keepAlive() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let first = try client.request("GET", "/healthz")
        let second = try client.request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")],
            body: Array(#"{"jsonrpc":"2.0","id":1,"method":"Test.Echo","params":{"text":"hi"}}"#.utf8))
        let third = try client.request("GET", "/healthz")
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(second.text == #"{"jsonrpc":"2.0","id":1,"result":{"text":"hi"}}"#)
        #expect(third.status == 200)
        #expect(first.header("connection")?.lowercased() != "close")
    }

    @Test("/readyz follows the readiness closure")
    func readiness() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try server.client().request("GET", "/readyz").status == 200)
        server.setReady(false)
        #expect(try server.client().request("GET", "/readyz").status == 503)
        server.setReady(true)
        #expect(try server.client().request("GET", "/readyz").status == 200)
    }

    @Test("unknown paths are 404, also without a document provider")
    func notFound() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try server.client().request("GET", "/nope").status == 404)
        #expect(try server.client().request("GET", "/.well-known/apple-app-site-association").status == 404)
    }

    @Test("GET /rpc is 405 with Allow: POST; POST /healthz is 405 with Allow: GET, HEAD")
    func methodNotAllowed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let get = try server.client().request("GET", "/rpc")
        #expect(get.status == 405)
        #expect(get.header("allow") == "POST")
        let post = try server.client().request("POST", "/healthz", body: Array("x".utf8))
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
    }

    @Test(
        "Content-Type must be application/json",
        arguments: [
            ("text/plain", 415), ("application/json", 200), ("Application/JSON; charset=utf-8", 200),
            ("application/jsonx", 415), (nil, 415),
        ] as [(String?, Int)])
    func contentType(_ type: String?, _ status: Int) throws {
        let server = try TestServer()
        defer { server.stop() }
        let headers = type.map { [("Content-Type", $0)] } ?? []
        let response = try server.client().request(
            "POST", "/rpc", headers: headers,
            body: Array(#"{"jsonrpc":"2.0","id":1,"method":"Test.Echo","params":{"text":"a"}}"#.utf8))
        #expect(response.status == status)
    }

    @Test("a body over the limit is 413, by Content-Length")
    func tooLargeByLength() throws {
        let server = try TestServer(configure: { $0.maxBodyBytes = 1000 })
        defer { server.stop() }
        let response = try server.client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")],
            body: Array(repeating: UInt8(ascii: " "), count: 1001))
        #expect(response.status == 413)
        let atLimit = try server.client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")],
            body: Array(#"{"jsonrpc":"2.0","id":1,"method":"Test.Echo","params":{"text":"a"}}"#.utf8)
                + Array(repeating: UInt8(ascii: " "), count: 1000 - 67))
        #expect(atLimit.status == 200)
    }

    @Test("a chunked body over the limit is 413")
    func tooLargeChunked() throws {
        let server = try TestServer(configure: { $0.maxBodyBytes = 1000 })
        defer { server.stop() }
        let client = try server.client()
        var request = "POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        request += "Transfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<3 { request += "200\r\n" + String(repeating: " ", count: 512) + "\r\n" }
        request += "0\r\n\r\n"
        try client.send(Array(request.utf8))
        #expect(try client.readResponse().status == 413)
    }

    @Test("a small chunked body is accepted")
    func chunkedAccepted() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let body = #"{"jsonrpc":"2.0","id":"c","method":"Test.Echo","params":{"text":"chunk"}}"#
        var request = "POST /rpc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        request += "Transfer-Encoding: chunked\r\n\r\n"
        let half = body.index(body.startIndex, offsetBy: 20)
        for part in [body[..<half], body[half...]] {
            request += String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n"
        }
        request += "0\r\n\r\n"
        try client.send(Array(request.utf8))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == #"{"jsonrpc":"2.0","id":"c","result":{"text":"chunk"}}"#)
    }

    @Test("garbage on the socket never takes the server down")
    func garbage() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        try client.send(Array("\u{1}\u{2} NOT HTTP\r\n\r\n".utf8))
        _ = try? client.readResponse()
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }

    @Test("the per-IP connection limit turns away a third connection")
    func perIPLimit() throws {
        let server = try TestServer(configure: { $0.perIPConnectionLimit = 2 })
        defer { server.stop() }
        let first = try server.client()
        let second = try server.client()
        #expect(try first.request("GET", "/healthz").status == 200)
        #expect(try second.request("GET", "/healthz").status == 200)
        #expect(throws: (any Error).self) { try server.client().request("GET", "/healthz") }
        #expect(try first.request("GET", "/healthz").status == 200)
    }

    @Test("the connection memory bounds the headers: what fits is served, more is 431, and the server goes on")
    func connectionMemoryBoundsHeaders() throws {
        let small = try TestServer(configure: { $0.connectionMemoryLimit = 16 * 1024 })
        defer { small.stop() }
        let roomy = try TestServer(configure: { $0.connectionMemoryLimit = 32 * 1024 })
        defer { roomy.stop() }
        func status(_ server: TestServer, cookie bytes: Int) throws -> Int {
            let cookie = "a=" + String(repeating: "x", count: bytes)
            return try server.client().request("GET", "/healthz", headers: [("Cookie", cookie)]).status
        }
        #expect(try status(small, cookie: 6_000) == 200)
        #expect(try status(small, cookie: 12_000) == 431)
        #expect(try status(roomy, cookie: 12_000) == 200)
        #expect(try status(small, cookie: 10) == 200)
    }

    @Test("an idle connection is closed after the connection timeout")
    func idleTimeout() throws {
        let server = try TestServer(configure: { $0.connectionTimeoutSeconds = 1 })
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.request("GET", "/healthz").status == 200)
        #expect(client.isClosedByPeer())
    }

    @Test("stop() is idempotent and frees the port")
    func stopTwice() throws {
        let server = try TestServer()
        let port = server.port
        server.stop()
        server.stop()
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port).request("GET", "/healthz") }
    }

    @Test("listen addresses parse")
    func listenAddress() {
        #expect(HTTPServerConfiguration.listenAddress("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(HTTPServerConfiguration.listenAddress("[::1]:0")! == ("::1", 0))
        #expect(HTTPServerConfiguration.listenAddress(":9")! == ("127.0.0.1", 9))
        #expect(HTTPServerConfiguration.listenAddress("localhost") == nil)
        #expect(HTTPServerConfiguration.listenAddress("[::1]8080") == nil)
    }

    @Test("listens on the IPv6 loopback too")
    func ipv6() throws {
        var router = Router()
        router.get("/healthz", label: "healthz") { _ in .respond(.text(200, "ok\n")) }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "::1", port: 0), router: router, log: .silent)
        try server.start()
        defer { server.stop() }
        #expect(server.port != 0)
        #expect(try RawHTTPClient(port: server.port, host: "::1").request("GET", "/healthz").status == 200)
    }

    @Test("a non-numeric listen address fails to start, and says so")
    func badAddress() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "localhost", port: 0), log: .silent)
        let error = try #require(throws: HTTPServer.StartError.self) { try server.start() }
        #expect(error.description == "cannot listen on localhost port 0: not a numeric IP address")
    }

    @Test("a port in use fails to start with libmicrohttpd's reason")
    func portInUse() throws {
        let first = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), log: .silent)
        try first.start()
        defer { first.stop() }
        let port = first.port
        let second = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port), log: .silent)
        let error = try #require(throws: HTTPServer.StartError.self) { try second.start() }
        #expect(error.description.hasPrefix("cannot listen on 127.0.0.1 port \(port): "))
        #expect(error.description.contains("in use"), "\(error.description)")
    }
}
