import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import Testing

/// Serves one AASA for `m.example.com`, a large one for `big.example.com` and an assetlinks file for `[::1]`.
struct FixtureDocuments: StaticDocumentProvider {
    static let aasa = StaticDocument(
        bytes: Array(#"{"applinks":{"details":[]}}"#.utf8), contentType: "application/json", etag: "rev-3",
        cacheControl: "public, max-age=300")
    static let assetlinks = StaticDocument(
        bytes: Array("[]".utf8), contentType: "application/json", etag: "W/\"links-1\"")

    /// Larger than a socket buffer: sent in several writes.
    static let big = StaticDocument(
        bytes: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }, contentType: "application/json",
        etag: "big-1")

    func document(path: String, host: String) -> StaticDocument? {
        switch (path, host) {
        case ("/.well-known/apple-app-site-association", "big.example.com"): Self.big
        case ("/.well-known/apple-app-site-association", "m.example.com"),
            ("/apple-app-site-association", "m.example.com"):
            Self.aasa
        case ("/.well-known/assetlinks.json", "::1"): Self.assetlinks
        default: nil
        }
    }
}

@Suite("Static documents")
final class StaticDocumentTests {
    let server: TestServer

    init() throws { server = try TestServer(documents: FixtureDocuments()) }

    deinit { server.stop() }

    private func get(
        _ path: String, host: String = "m.example.com", _ extra: [(String, String)] = []
    ) throws -> RawHTTPClient.Response {
        try server.client().request("GET", path, headers: [("Host", host)] + extra)
    }

    @Test("both AASA paths answer 200 with the bytes, ETag, Cache-Control and JSON type, never a redirect")
    func served() throws {
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            let response = try get(path)
            #expect(response.status == 200)
            #expect(response.text == #"{"applinks":{"details":[]}}"#)
            #expect(response.header("etag") == "\"rev-3\"")
            #expect(response.header("cache-control") == "public, max-age=300")
            #expect(response.header("content-type") == "application/json")
            #expect(response.header("location") == nil)
        }
    }

    @Test(
        "If-None-Match answers 304 for a matching tag, list or weak form",
        arguments: [
            ("\"rev-3\"", 304), ("W/\"rev-3\"", 304), ("\"a\", \"rev-3\"", 304), ("\"a\",W/\"rev-3\"", 304),
            ("*", 304), ("\"rev-2\"", 200), ("\"rev-33\"", 200), ("rev-3", 200), ("\"a\", \"b\"", 200),
        ])
    func conditional(_ header: String, _ status: Int) throws {
        let response = try get("/.well-known/apple-app-site-association", [("If-None-Match", header)])
        #expect(response.status == status)
        #expect(response.header("etag") == "\"rev-3\"")
        if status == 304 {
            #expect(response.body.isEmpty)
            #expect(response.header("cache-control") == "public, max-age=300")
        }
    }

    @Test(
        "the Host header is normalized: port, case, trailing dot, IPv6 literal",
        arguments: [
            ("m.example.com", 200), ("m.example.com:8443", 200), ("M.Example.COM", 200), ("m.example.com.", 200),
            ("M.EXAMPLE.COM.:443", 200), ("other.example.com", 404), ("example.com", 404), ("", 404),
        ])
    func hosts(_ host: String, _ status: Int) throws {
        #expect(try get("/apple-app-site-association", host: host).status == status)
    }

    @Test("an IPv6 literal host is looked up without brackets or port")
    func ipv6Host() throws {
        let response = try get("/.well-known/assetlinks.json", host: "[::1]:8080")
        #expect(response.status == 200)
        #expect(response.header("etag") == "W/\"links-1\"")
    }

    @Test("HEAD answers the headers without the body; POST is 405")
    func methods() throws {
        let head = try server.client().request(
            "HEAD", "/apple-app-site-association", headers: [("Host", "m.example.com")])
        #expect(head.status == 200)
        #expect(head.header("etag") == "\"rev-3\"")
        let post = try server.client().request(
            "POST", "/apple-app-site-association", headers: [("Host", "m.example.com")], body: [])
        #expect(post.status == 405)
    }

    @Test("the same prebuilt response serves many requests on one connection")
    func reuse() throws {
        let client = try server.client()
        for _ in 0..<50 {
            let response = try client.request(
                "GET", "/apple-app-site-association", headers: [("Host", "m.example.com")])
            #expect(response.status == 200)
            #expect(response.body.count == 27)
        }
    }

    @Test("a large prebuilt document arrives whole, again and again, on parallel connections")
    func largeDocument() async throws {
        let path = "/.well-known/apple-app-site-association"
        let expected = FixtureDocuments.big.bytes
        let head = try server.client().request("HEAD", path, headers: [("Host", "big.example.com")])
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("content-length") == String(expected.count))
        let port = server.port
        let intact = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let client = try RawHTTPClient(port: port)
                    var whole = 0
                    for _ in 0..<20 {
                        let response = try client.request("GET", path, headers: [("Host", "big.example.com")])
                        if response.status == 200, response.body == expected,
                            response.header("etag") == "\"big-1\""
                        {
                            whole += 1
                        }
                    }
                    return whole
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(intact == 160)
    }
}
