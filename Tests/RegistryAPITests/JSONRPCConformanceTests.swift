import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

/// JSON-RPC 2.0 (jsonrpc.org/specification) through the real daemon.
@Suite("JSON-RPC 2.0 conformance")
final class JSONRPCConformanceTests {
    let server: TestServer

    init() throws { server = try TestServer(limits: JSONRPCLimits(maxBatchSize: 5, maxNestingDepth: 64)) }

    deinit { server.stop() }

    private func errorCode(_ value: JSONValue) -> Int? { value["error"]?["code"]?.int }

    @Test("a single call returns its result with the id")
    func single() throws {
        let response = try server.rpc(
            #"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"ab","times":2},"id":7}"#)
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-request-id") != nil)
        #expect(response.text == #"{"jsonrpc":"2.0","id":7,"result":{"text":"abab"}}"#)
    }

    @Test(
        "the id is echoed with its exact type and spelling",
        arguments: [
            #""abc""#, #""\u00e9\"x""#, "1", "-0", "1.5", "12345678901234567890123", "1e3", "null", "\"\"",
        ])
    func idEcho(_ id: String) throws {
        let response = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"x"},"id":"# + id + "}")
        #expect(response.text == #"{"jsonrpc":"2.0","id":"# + id + #","result":{"text":"x"}}"#)
    }

    @Test("members may come in any order and params may be omitted when the input allows it")
    func memberOrder() throws {
        let response = try server.rpc(#" { "id" : "z" , "method" : "Test.Public" , "jsonrpc" : "2.0" } "#)
        #expect(response.text == #"{"jsonrpc":"2.0","id":"z","result":{}}"#)
    }

    @Test("escaped member names are the names they spell")
    func escapedKeys() throws {
        let response = try server.rpc(#"{"jsonrpc":"2.0","\u006dethod":"Test.Echo","params":{"text":"k"},"id":1}"#)
        #expect(response.text == #"{"jsonrpc":"2.0","id":1,"result":{"text":"k"}}"#)
    }

    @Test(
        "invalid JSON is -32700 with id null",
        arguments: [
            #"{"jsonrpc":"2.0","method":"foo","params":"bar","baz]"#, "", "{", "[1,]", #"{"a":01}"#, "nul",
            #"{"jsonrpc":"2.0","id":1,"method":"Test.Echo"} x"#,
        ])
    func parseError(_ body: String) throws {
        let value = try server.call(body)
        #expect(errorCode(value) == -32700)
        #expect(value["id"] == .null)
        #expect(value["jsonrpc"]?.stringValue == "2.0")
    }

    @Test("a number beyond Double's range is still valid JSON")
    func hugeNumber() throws {
        let raw = try server.rpc(
            #"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"x","extra":1e999},"id":1e999}"#)
        #expect(raw.text == #"{"jsonrpc":"2.0","id":1e999,"result":{"text":"x"}}"#)
    }

    @Test("invalid UTF-8 is -32700")
    func invalidUTF8() throws {
        var body = Array(#"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":""#.utf8)
        body += [0xC3, 0x28]
        body += Array(#""},"id":1}"#.utf8)
        let response = try server.client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")], body: body)
        let value = try JSONValue(json: Data(response.body))
        #expect(errorCode(value) == -32700)
        let overlong = try server.client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")], body: [0x22, 0xC0, 0xAF, 0x22])
        #expect(errorCode(try JSONValue(json: Data(overlong.body))) == -32700)
    }

    @Test(
        "invalid request objects are -32600",
        arguments: [
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, #"{"method":"Test.Echo","id":1}"#,
            #"{"jsonrpc":"1.0","method":"Test.Echo","id":1}"#, #"{"jsonrpc":"2.0","id":1}"#,
            #"{"jsonrpc":"2.0","method":"Test.Echo","params":"text","id":1}"#,
            #"{"jsonrpc":"2.0","method":"Test.Echo","id":true}"#, #"{"jsonrpc":"2.0","method":"Test.Echo","id":{}}"#,
            "1", #""text""#, "null",
        ])
    func invalidRequest(_ body: String) throws {
        let value = try server.call(body)
        #expect(errorCode(value) == -32600)
    }

    @Test("an invalid request with a readable id echoes it; an unreadable id becomes null")
    func invalidRequestID() throws {
        #expect(try server.call(#"{"jsonrpc":"1.0","method":"Test.Echo","id":"q"}"#)["id"]?.stringValue == "q")
        #expect(try server.call(#"{"jsonrpc":"2.0","method":"Test.Echo","id":[1]}"#)["id"] == .null)
    }

    @Test("an unknown method is -32601")
    func methodNotFound() throws {
        let value = try server.call(#"{"jsonrpc":"2.0","method":"Nope.Nothing","id":"a"}"#)
        #expect(errorCode(value) == -32601)
        #expect(value["id"]?.stringValue == "a")
    }

    @Test("params that do not decode are -32602 with field paths")
    func invalidParams() throws {
        let wrongType = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Nested","params":{"route":{"platforms":{"ios":{"since":5}}}},"id":1}"#)
        #expect(errorCode(wrongType) == -32602)
        #expect(wrongType["error"]?["data"]?["status"]?.stringValue == "INVALID_ARGUMENT")
        #expect(
            wrongType["error"]?["data"]?["details"]?.array?.first?["field"]?.stringValue == "route.platforms.ios.since")

        let missing = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Nested","params":{"route":{"platforms":{"ios":{}}}},"id":1}"#)
        #expect(
            missing["error"]?["data"]?["details"]?.array?.first?["field"]?.stringValue == "route.platforms.ios.since")

        let inArray = try server.call(
            #"{"jsonrpc":"2.0","method":"Test.Nested","params":{"route":{"platforms":{"ios":{"since":"1"}}},"tags":["a",2]},"id":1}"#
        )
        #expect(inArray["error"]?["data"]?["details"]?.array?.first?["field"]?.stringValue == "tags[1]")

        let positional = try server.call(#"{"jsonrpc":"2.0","method":"Test.Echo","params":["x"],"id":1}"#)
        #expect(errorCode(positional) == -32602)
        let absent = try server.call(#"{"jsonrpc":"2.0","method":"Test.Echo","id":1}"#)
        #expect(errorCode(absent) == -32602)
        #expect(absent["error"]?["data"]?["details"]?.array?.first?["field"]?.stringValue == "text")
    }

    @Test("a result that cannot be encoded is -32603 without details")
    func internalError() throws {
        let value = try server.call(#"{"jsonrpc":"2.0","method":"Test.BadOutput","id":1}"#)
        #expect(errorCode(value) == -32603)
        #expect(value["error"]?["message"]?.stringValue?.contains("NaN") == false)
    }

    @Test("a batch answers each call in one array; notifications get nothing")
    func batch() throws {
        let response = try server.rpc(
            #"""
            [{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"1"},"id":"1"},
             {"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"n"}},
             {"jsonrpc":"2.0","method":"Nope","id":"2"},
             {"foo":"boo"},
             {"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"5"},"id":5}]
            """#)
        #expect(response.status == 200)
        let members = try #require(try JSONValue(json: Data(response.body)).array)
        #expect(members.count == 4)
        #expect(members[0]["result"]?["text"]?.stringValue == "1")
        #expect(errorCode(members[1]) == -32601)
        #expect(errorCode(members[2]) == -32600)
        #expect(members[2]["id"] == .null)
        #expect(members[3]["id"]?.int == 5)
    }

    @Test("an empty batch is one -32600 error, not an array")
    func emptyBatch() throws {
        let value = try server.call("[ ]")
        #expect(errorCode(value) == -32600)
        #expect(value["id"] == .null)
    }

    @Test("a batch of non-objects answers -32600 for each member")
    func invalidMembers() throws {
        let members = try #require(try server.call("[1,2,3]").array)
        #expect(members.count == 3)
        #expect(members.allSatisfy { errorCode($0) == -32600 && $0["id"] == .null })
    }

    @Test("a batch with an invalid JSON member is one -32700")
    func batchParseError() throws {
        let value = try server.call(
            #"[{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"1"},"id":"1"},{"jsonrpc":"2.0","method"]"#)
        #expect(errorCode(value) == -32700)
    }

    @Test("notifications only: HTTP 204 without a body")
    func allNotifications() throws {
        let batch = try server.rpc(
            #"[{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"1"}},{"jsonrpc":"2.0","method":"Nope"}]"#)
        #expect(batch.status == 204)
        #expect(batch.body.isEmpty)
        let single = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Crash"}"#)
        #expect(single.status == 204)
        #expect(single.body.isEmpty)
    }

    @Test("a batch over the limit is one -32600 naming the limit")
    func batchLimit() throws {
        let call = #"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"1"},"id":1}"#
        let value = try server.call("[" + Array(repeating: call, count: 6).joined(separator: ",") + "]")
        #expect(errorCode(value) == -32600)
        #expect(value["error"]?["message"]?.stringValue?.contains("5") == true)
        let atLimit = try server.call("[" + Array(repeating: call, count: 5).joined(separator: ",") + "]")
        #expect(atLimit.array?.count == 5)
    }

    @Test("nesting 10,000 deep is -32600 without touching the stack")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(errorCode(try server.call(deep)) == -32600)
        let deepParams =
            #"{"jsonrpc":"2.0","method":"Test.Echo","id":1,"params":{"text":"x","n":"#
            + String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000) + "}}"
        #expect(errorCode(try server.call(deepParams)) == -32600)
        let unclosed = String(repeating: "{\"a\":", count: 10_000)
        #expect(errorCode(try server.call(unclosed)) == -32600)
        let shallow =
            #"{"jsonrpc":"2.0","method":"Test.Echo","id":1,"params":{"text":"x","n":"#
            + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "}}"
        #expect(try server.call(shallow)["result"]?["text"]?.stringValue == "x")
    }

    @Test("rpc.discover returns the OpenRPC document as is")
    func discover() throws {
        let response = try server.rpc(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#)
        #expect(
            response.text == #"{"jsonrpc":"2.0","id":1,"result":"#
                + String(decoding: TestMethods.openRPC, as: UTF8.self) + "}")
    }
}
