import CMicroHTTPD
import Foundation
import Testing

@testable import RegistryAPI
@testable import HTTPServing
import JSONRPC

/// libmicrohttpd refuses a header it cannot send (CR or LF in it, an empty value): the server then answers
/// 500 and counts the failure, instead of sending the response without that header.
@Suite("Refused responses")
struct ResponseFailureTests {
    /// Serves a document whose `Cache-Control` would split the header block.
    struct SplitHeaderDocuments: StaticDocumentProvider {
        static let document = StaticDocument(
            bytes: Array("{}".utf8), contentType: "application/json", etag: "rev-1",
            cacheControl: "public, max-age=300\r\nX-Injected: yes")

        func document(path: String, host: String) -> StaticDocument? {
            path == "/split" ? Self.document : nil
        }
    }

    @Test(
        "a response with a refused header is not built, and nothing is leaked",
        arguments: [
            ("X-Split", "a\r\nX-Injected: yes"), ("X-Split", "a\nb"), ("X-Empty", ""), ("Bad Name", "v"),
        ])
    func refusedHeader(header: (String, String)) {
        #expect(HTTPResponse.response(body: Array("ok".utf8), headers: [header]) == nil)
        #expect(SharedResponse(body: Array("ok".utf8), headers: [("ETag", "\"1\""), header]) == nil)
    }

    @Test("a refused Content-Type fails the response too; valid headers build one")
    func contentType() throws {
        #expect(HTTPResponse.response(body: [], contentType: "text/plain\r\nX-Injected: yes", headers: []) == nil)
        let response = try #require(
            HTTPResponse.response(
                body: Array("ok".utf8), contentType: "text/plain", headers: [("X-Request-Id", "abc-1")]))
        MHD_destroy_response(response)
        #expect(SharedResponse(body: [], headers: [("ETag", "\"1\"")]) != nil)
    }

    @Test("a document whose header libmicrohttpd refuses is answered 500, counted, and never sent without it")
    func refusedDocumentIsA500() throws {
        let server = try TestServer(documents: SplitHeaderDocuments())
        defer { server.stop() }
        let response = try server.client().request("GET", "/split", headers: [("Host", "m.example.com")])
        #expect(response.status == 500)
        #expect(response.header("x-injected") == nil)
        #expect(response.text != "{}")
        // The request is counted when libmicrohttpd reports it complete, which may follow the answer.
        try waitUntil {
            (try? server.client().request("GET", "/metrics").text)?.contains(
                #"routereg_http_requests_total{handler="static",code="500"} 1"#) == true
        }
        let metrics = try server.client().request("GET", "/metrics").text
        #expect(metrics.contains("routereg_http_responses_failed_total 1.0"))
    }
}
