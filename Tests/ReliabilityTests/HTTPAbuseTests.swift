import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Abusive HTTP clients not covered by RegistryAPITests: thousands of headers, trickled bytes, half-closed
/// sockets, thousands of idle connections, odd Host headers. Each is answered with a clear error or cut
/// off, and a normal request succeeds during and after the abuse.
@Suite("HTTP abuse")
struct HTTPAbuseTests {
    /// A registry with one domain and a published route, plus a second daemon on the same service with a
    /// 2 s idle timeout so cut-offs are seen quickly.
    final class AbuseServer: Sendable {
        let registry: TestRegistryServer
        let quickTimeout: RegistryServer
        let host = "abuse.example.com"

        init() async throws {
            registry = try TestRegistryServer(suite: "abuse")
            quickTimeout = RegistryServer(
                service: registry.service,
                configuration: HTTPServerConfiguration(
                    host: "127.0.0.1", port: 0, threadPoolSize: 2, connectionTimeoutSeconds: 2),
                log: .silent)
            try quickTimeout.start()
            let client = RegistryClient(baseURL: registry.baseURL, token: TestRegistryServer.adminToken)
            _ = try await client.result("Apps.Create", Fixture.app("abuse"))
            _ = try await client.result("Domains.Create", ["domain": ["host": host, "apps": ["abuse"]]])
            _ = try await client.result(
                "Routes.Create", ["app": "abuse", "route": Fixture.route("r", path: "/r/*")])
            _ = try await client.result("Releases.Publish", ["app": "abuse", "platform": "ios", "version": "1.0"])
        }

        func shutdown() {
            quickTimeout.stop()
            registry.shutdown()
        }

        /// A well-known GET on a fresh connection to `port` must answer 200 with the AASA.
        func normalRequestSucceeds(port: UInt16) throws -> Bool {
            let connection = try RawConnection(port: port)
            connection.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let response = connection.readResponse()
            return response.status == 200 && response.text.contains("applinks")
        }
    }

    @Test("2,000 headers, or one 100 KB header: 4xx and closed; the next request is served")
    func tooManyHeaders() async throws {
        let fixture = try await AbuseServer()
        defer { fixture.shutdown() }
        let port = fixture.registry.server.port
        let many = (0..<2000).map { "X-Filler-\($0): \(String(repeating: "v", count: 20))\r\n" }.joined()
        let long = "X-Long: " + String(repeating: "a", count: 100_000) + "\r\n"
        for headers in [many, long] {
            let connection = try RawConnection(port: port)
            connection.send("GET /healthz HTTP/1.1\r\nHost: \(fixture.host)\r\n" + headers + "\r\n")
            let response = connection.readResponse()
            let status = try #require(response.status, "no HTTP answer: \(response.text.prefix(200))")
            #expect((400..<500).contains(status), "status \(status)")
            #expect(connection.readAll().closed, "the connection stayed open after the refusal")
            #expect(try fixture.normalRequestSucceeds(port: port))
        }
    }

    @Test("slow-loris: 50 trickling clients do not stop others; one that stalls is cut off at the idle timeout")
    func slowLoris() async throws {
        let fixture = try await AbuseServer()
        defer { fixture.shutdown() }
        let port = fixture.quickTimeout.port
        let request = Array("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: \(fixture.host)\r\n".utf8)
        let tricklers = try (0..<50).map { _ in try RawConnection(port: port) }
        // One byte per connection every 200 ms: never idle for the 2 s timeout, never complete.
        for step in 0..<15 {
            for connection in tricklers { connection.send([request[step % request.count]]) }
            #expect(try fixture.normalRequestSucceeds(port: port), "step \(step)")
            try await Task.sleep(for: .milliseconds(200))
        }
        let staller = try RawConnection(port: port, receiveTimeout: 8)
        staller.send(Array(request.prefix(20)))
        let started = ContinuousClock.now
        let cut = staller.readAll()
        #expect(cut.closed, "a stalled half-sent request was never cut off")
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(try fixture.normalRequestSucceeds(port: port))
    }

    @Test("half-closed: a whole request then FIN is answered; a partial one then FIN is cut off by the idle timeout")
    func halfClosed() async throws {
        let fixture = try await AbuseServer()
        defer { fixture.shutdown() }
        // libmicrohttpd does not close on the client's FIN alone: a partial request is held until the idle
        // timeout, 2 s on this daemon. The read timeout (8 s) proves it is not held longer.
        let port = fixture.quickTimeout.port
        let whole = try RawConnection(port: port)
        whole.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n")
        whole.shutdownWrite()
        let answered = whole.readResponse()
        #expect(answered.status == 200, "\(answered.text.prefix(200))")

        let partialBody = try RawConnection(port: port, receiveTimeout: 8)
        partialBody.send(
            "POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"js")
        partialBody.shutdownWrite()
        let partialHead = try RawConnection(port: port, receiveTimeout: 8)
        partialHead.send("GET /healthz HTTP/1.1\r\nHo")
        partialHead.shutdownWrite()
        for connection in [partialBody, partialHead] {
            let outcome = connection.readAll()
            #expect(outcome.closed, "a half-closed partial request was held open")
            let text = String(decoding: outcome.bytes, as: UTF8.self)
            #expect(!text.contains(" 200 "), "a partial request was answered as if complete: \(text.prefix(200))")
        }
        #expect(try fixture.normalRequestSucceeds(port: port))
    }

    @Test("2,000 idle connections: a normal request is still served while they are open")
    func manyIdleConnections() async throws {
        let fixture = try await AbuseServer()
        defer { fixture.shutdown() }
        let port = fixture.registry.server.port
        // Both ends live in this process: 4,000 descriptors, more than a default soft limit of 1,024.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 8192 {
            limit.rlim_cur = min(limit.rlim_max, 8192)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        try #require(limit.rlim_cur >= 4500, "ulimit -n is \(limit.rlim_cur); 2,000 idle connections need 4,500")
        var idle: [RawConnection] = []
        for _ in 0..<2000 { idle.append(try RawConnection(port: port)) }
        #expect(try fixture.normalRequestSucceeds(port: port))
        let client = RegistryClient(baseURL: fixture.registry.baseURL, token: nil)
        let check = try await client.result(
            "CanOpen.Check",
            ["app": "abuse", "platform": "ios", "version": "1.0", "url": "https://\(fixture.host)/r/1"])
        #expect(check["decision"] as? String == "open_in_app")
        idle.removeAll()
        #expect(try fixture.normalRequestSucceeds(port: port))
    }

    @Test("Host with port, upper case or trailing dot finds the domain; IPv6 literals and junk get a clean 4xx")
    func hostHeaders() async throws {
        let fixture = try await AbuseServer()
        defer { fixture.shutdown() }
        let port = fixture.registry.server.port
        func get(_ host: String) throws -> (status: Int?, text: String) {
            let connection = try RawConnection(port: port)
            connection.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            return connection.readResponse()
        }
        let reference = try get(fixture.host)
        #expect(reference.status == 200)
        let body = reference.text.components(separatedBy: "\r\n\r\n").last
        // A non-numeric port is read leniently (the port is dropped either way): the same public file.
        let lenient = ["abuse.example.com:notaport"]
        for variant in ["abuse.example.com:443", "ABUSE.Example.COM", "abuse.example.com.", "Abuse.Example.Com.:8080"]
            + lenient
        {
            let response = try get(variant)
            #expect(response.status == 200, "\(variant): \(response.text.prefix(200))")
            #expect(response.text.components(separatedBy: "\r\n\r\n").last == body, "\(variant) served other bytes")
        }
        let junk = [
            "[::1]", "[::1]:8080", "[2001:db8::1]", "127.0.0.1", "", "a b.example.com",
            "..", ":", String(repeating: "a.", count: 2000) + "com", "abuse.example.com%00", "%2e%2e",
        ]
        for variant in junk {
            let response = try get(variant)
            let status = try #require(response.status, "\(variant.prefix(40)): no HTTP answer")
            #expect((400..<500).contains(status), "\(variant.prefix(40)): \(status)")
            #expect(!response.text.contains("applinks"), "\(variant.prefix(40)) was served a document")
        }
        #expect(try fixture.normalRequestSucceeds(port: port))
    }
}
