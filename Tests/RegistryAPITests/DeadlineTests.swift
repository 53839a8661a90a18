import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import Testing

@Suite("X-Request-Timeout-Ms deadlines")
final class DeadlineTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    deinit { server.stop() }

    private func code(_ body: String, timeout: String) throws -> Int? {
        try server.call(body, headers: [("X-Request-Timeout-Ms", timeout)])["error"]?["code"]?.int
    }

    @Test("a generous deadline changes nothing")
    func generous() throws {
        #expect(
            try code(#"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"a"},"id":1}"#, timeout: "60000") == nil)
    }

    @Test("a zero deadline has passed before the handler starts")
    func zero() throws {
        #expect(try code(#"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"a"},"id":1}"#, timeout: "0") == 4)
    }

    @Test("a handler that outlives the deadline is answered DEADLINE_EXCEEDED")
    func exceeded() throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Sleep","params":{"ms":200},"id":1}"#,
            headers: [("X-Request-Timeout-Ms", "20")])
        #expect(value["error"]?["code"]?.int == 4)
        #expect(value["error"]?["data"]?["status"]?.stringValue == "DEADLINE_EXCEEDED")
    }

    @Test("a write that succeeded after its deadline is answered its success: it committed")
    func writeSucceeded() throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.SlowWrite","params":{"ms":200},"id":1}"#,
            headers: [("X-Request-Timeout-Ms", "20"), ("Authorization", "Bearer w")])
        #expect(value["error"] == nil)
        #expect(value["result"]?["text"]?.stringValue == "written")
    }

    @Test("a deferred call completed after the deadline is answered DEADLINE_EXCEEDED")
    func deferredExceeded() throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Later","params":{"ms":200},"id":1}"#,
            headers: [("X-Request-Timeout-Ms", "20")])
        #expect(value["error"]?["code"]?.int == 4)
    }

    @Test(
        "an invalid header is INVALID_ARGUMENT naming the header", arguments: ["abc", "-5", "1.5", "", "99999999999"])
    func invalid(_ header: String) throws {
        let value = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"a"},"id":1}"#,
            headers: [("X-Request-Timeout-Ms", header)])
        #expect(value["error"]?["code"]?.int == 3)
        #expect(value["error"]?["data"]?["details"]?.array?.first?["field"]?.stringValue == "X-Request-Timeout-Ms")
    }
}
