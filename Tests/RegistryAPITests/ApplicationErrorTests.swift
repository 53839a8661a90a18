import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

@Suite("gRPC-style application errors")
final class ApplicationErrorTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    deinit { server.stop() }

    @Test("a RegistryError keeps its gRPC code, message and status name")
    func notFound() throws {
        let error = try #require(try server.call(#"{"jsonrpc":"2.0","method":"Test.NotFound","id":1}"#)["error"])
        #expect(error["code"]?.int == 5)
        #expect(error["message"]?.stringValue == "apps/ghost not found")
        #expect(error["data"]?["status"]?.stringValue == "NOT_FOUND")
        #expect(error["data"]?["details"] == nil)
    }

    @Test("field violations travel in data.details")
    func fieldViolations() throws {
        let error = try #require(try server.call(#"{"jsonrpc":"2.0","method":"Test.BadField","id":1}"#)["error"])
        #expect(error["code"]?.int == 3)
        #expect(error["data"]?["status"]?.stringValue == "INVALID_ARGUMENT")
        let detail = try #require(error["data"]?["details"]?.array?.first)
        #expect(detail["field"]?.stringValue == "route.platforms.ios.since")
        #expect(detail["description"]?.stringValue == "not a version")
    }

    @Test("any other error is INTERNAL with the request id and no detail; the detail goes to the log")
    func internalError() throws {
        let lines = LogLines()
        let server = try TestServer(log: .custom { lines.append($0) })
        defer { server.stop() }
        let response = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Crash","id":1}"#)
        let error = try #require(try JSONValue(json: Data(response.body))["error"])
        let requestID = try #require(response.header("x-request-id"))
        #expect(error["code"]?.int == 13)
        #expect(error["data"]?["status"]?.stringValue == "INTERNAL")
        #expect(error["data"]?["requestId"]?.stringValue == requestID)
        #expect(error["message"]?.stringValue?.contains(requestID) == true)
        #expect(!response.text.contains("SECRET"))
        #expect(lines.all.contains { $0.contains("SECRET-DETAIL") && $0.contains(requestID) })
    }
}
