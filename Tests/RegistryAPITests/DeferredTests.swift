import Dispatch
import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

@Suite("Deferred (long-poll) calls")
final class DeferredTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    deinit { server.stop() }

    @Test("a call completed later from another thread answers once, with the first completion")
    func completedLater() throws {
        let response = try server.rpc(
            #"{"jsonrpc":"2.0","method":"Test.Later","params":{"ms":100,"value":"v"},"id":9}"#)
        #expect(response.text == #"{"jsonrpc":"2.0","id":9,"result":{"text":"v"}}"#)
    }

    @Test("a call completed inside its handler answers at once")
    func completedInline() throws {
        let response = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Now","params":{"text":"n"},"id":"i"}"#)
        #expect(response.text == #"{"jsonrpc":"2.0","id":"i","result":{"text":"n"}}"#)
    }

    @Test("a later failure carries its gRPC status")
    func failedLater() throws {
        let value = try server.call(#"{"jsonrpc":"2.0","method":"Test.LaterFail","params":{"ms":50},"id":1}"#)
        #expect(value["error"]?["code"]?.int == 10)
        #expect(value["error"]?["data"]?["status"]?.stringValue == "ABORTED")
    }

    @Test("deferred methods are refused inside a batch, other members still run")
    func inBatch() throws {
        let members = try #require(
            try server.call(
                #"[{"jsonrpc":"2.0","method":"Test.Later","params":{"ms":1},"id":1},{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"e"},"id":2}]"#
            ).array)
        #expect(members[0]["error"]?["code"]?.int == 9)
        #expect(members[1]["result"]?["text"]?.stringValue == "e")
    }

    @Test("a deferred notification is answered 204 at once")
    func notification() throws {
        let response = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Hold"}"#)
        #expect(response.status == 204)
    }

    @Test("deferred calls follow each other on one kept-alive connection")
    func keepAlive() throws {
        let client = try server.client()
        for index in 0..<3 {
            let response = try client.request(
                "POST", "/rpc", headers: [("Content-Type", "application/json")],
                body: Array(#"{"jsonrpc":"2.0","method":"Test.Later","params":{"ms":20},"id":\#(index)}"#.utf8))
            #expect(response.text == #"{"jsonrpc":"2.0","id":\#(index),"result":{"text":"later"}}"#)
        }
    }

    @Test("200 waiters on a 2-thread pool hold no thread: health checks still answer, then all complete")
    func manyWaiters() throws {
        let body = Array(#"{"jsonrpc":"2.0","method":"Test.Hold","id":1}"#.utf8)
        var clients: [RawHTTPClient] = []
        for _ in 0..<200 {
            let client = try server.client()
            var request = Array("POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n".utf8)
            request += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            try client.send(request)
            clients.append(client)
        }
        try waitUntil { self.server.holds.count == 200 }
        #expect(try server.client().request("GET", "/healthz").status == 200)
        server.holds.completeAll("done")
        for client in clients {
            #expect(try client.readResponse().text == #"{"jsonrpc":"2.0","id":1,"result":{"text":"done"}}"#)
        }
    }

    @Test("a deferred call is answered at its deadline even if the handler never completes")
    func deadline() throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Hold","id":1}"#, headers: [("X-Request-Timeout-Ms", "50")])
        #expect(value["error"]?["code"]?.int == 4)
    }
}

/// Polls `condition` every 5 ms for up to 10 s; throws when it never holds.
func waitUntil(_ condition: () -> Bool) throws {
    for _ in 0..<2000 {
        if condition() { return }
        usleep(5000)
    }
    throw RawHTTPClient.Failure(description: "condition never held")
}
