import Foundation
import HTTPServing
import JSONRPC
import RouteCore
import Testing

/// Requests that could be read two ways are refused, every error carries `nosniff`, and the request log
/// keeps no client address unless asked to (issue 41).
@Suite struct StrictHTTPTests {
    static let call = #"{"jsonrpc":"2.0","id":1,"method":"Test.Echo","params":{"text":"hi"}}"#

    /// Sends `head` (lines without the final blank line) and `body` on a fresh connection.
    static func exchange(_ server: TestServer, _ head: [String], body: String = "") throws -> RawHTTPClient.Response {
        let client = try server.client()
        try client.send(Array((head.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8))
        return try client.readResponse()
    }

    @Test("two Host headers are refused 400 with a fixed sentence, and the server goes on")
    func twoHosts() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try Self.exchange(server, ["GET /healthz HTTP/1.1", "Host: localhost", "Host: evil.example"])
        #expect(response.status == 400)
        #expect(response.text == "bad request: more than one Host header\n")
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(!response.text.contains("evil"))
        #expect(try server.client().request("GET", "/healthz").status == 200)
    }

    @Test("Content-Length values that differ, or Content-Length with Transfer-Encoding, are refused 400")
    func conflictingLengths() throws {
        let server = try TestServer()
        defer { server.stop() }
        let post = ["POST /rpc HTTP/1.1", "Host: localhost", "Content-Type: application/json"]
        let count = Self.call.utf8.count
        let differ = try Self.exchange(
            server, post + ["Content-Length: \(count)", "Content-Length: \(count + 5)"], body: Self.call)
        #expect(differ.status == 400)
        #expect(differ.text == "bad request: Content-Length headers with different values\n")
        #expect(differ.header("x-content-type-options") == "nosniff")
        let chunked = String(count, radix: 16) + "\r\n" + Self.call + "\r\n0\r\n\r\n"
        let both = try Self.exchange(
            server, post + ["Content-Length: \(count)", "Transfer-Encoding: chunked"], body: chunked)
        #expect(both.status == 400)
        #expect(both.text == "bad request: both Content-Length and Transfer-Encoding\n")
        // The same length twice means one thing: served (RFC 9112 lets a recipient accept it).
        let same = try Self.exchange(
            server, post + ["Content-Length: \(count)", "Content-Length: \(count)"], body: Self.call)
        #expect(same.status == 200)
    }

    @Test("the router's and the guard's errors carry X-Content-Type-Options: nosniff")
    func errorsAreNotSniffed() throws {
        let server = try TestServer(configure: { $0.maxBodyBytes = 64 })
        defer { server.stop() }
        let client = try server.client()
        let notFound = try client.request("GET", "/%3Cimg%20src=x%3E")
        #expect(notFound.status == 404 && notFound.header("x-content-type-options") == "nosniff")
        #expect(!notFound.text.contains("<img"))
        let notAllowed = try client.request("DELETE", "/rpc")
        #expect(notAllowed.status == 405 && notAllowed.header("x-content-type-options") == "nosniff")
        let tooLarge = try server.client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")], body: Array(repeating: 32, count: 100))
        #expect(tooLarge.status == 413 && tooLarge.header("x-content-type-options") == "nosniff")
        let control = try server.client().request("GET", "/healthz%00x")
        #expect(control.status == 400 && control.header("x-content-type-options") == "nosniff")
        // A success is not an error page: left as it was.
        #expect(try server.client().request("GET", "/healthz").header("x-content-type-options") == nil)
    }

    @Test("the request log writes the client's address only when configured to")
    func clientAddressIsOptIn() throws {
        for logged in [false, true] {
            let lines = LogLines()
            let server = try TestServer(configure: { $0.logClientAddress = logged }, log: .custom { lines.append($0) })
            defer { server.stop() }
            _ = try server.client().request("GET", "/healthz")
            try waitUntil { lines.all.count == 1 }
            let line = try JSONValue(json: Data(try #require(lines.all.first).utf8))
            #expect(line["remote"]?.stringValue == (logged ? "127.0.0.1" : nil))
            #expect(line["path"]?.stringValue == "/healthz")
        }
    }
}
