import Foundation
import RouteCore
import RouteRegistryClient
import Testing

@Suite("RPCClient")
struct RPCClientTests {
    private static let decisionJSON = """
        {"decision":"open_in_browser","reason":"unsupported_version","route":"lookalikes",\
        "fallbackUrl":"https://m.badoo.com/l/a/42?ul_fallback=1","supportedSince":"5.12.0"}
        """

    @Test func decodesTypedResultAndSendsTheEnvelopeAndHeaders() async throws {
        let server = try FakeRPCServer { _ in .result(Self.decisionJSON) }
        defer { server.stop() }
        let client = RPCClient(server: server.url, token: "s3cret", timeout: 2.5)
        let decision = try await client.call(
            API.CanOpenCheck.self,
            .init(app: "badoo", platform: .ios, version: try Version("5.11.0"), url: "https://m.badoo.com/l/a/42"))
        #expect(
            decision
                == Decision(
                    decision: .openInBrowser, reason: .unsupportedVersion, route: "lookalikes",
                    fallbackUrl: "https://m.badoo.com/l/a/42?ul_fallback=1", supportedSince: "5.12.0"))
        let request = try #require(server.requests.first)
        #expect(request.method == "CanOpen.Check")
        #expect(request.params["app"] == .string("badoo"))
        #expect(request.params["version"] == .string("5.11.0"))
        #expect(request.params["url"] == .string("https://m.badoo.com/l/a/42"))
        #expect(request.headers["authorization"] == "Bearer s3cret")
        #expect(request.headers["x-request-timeout-ms"] == "2500")
        #expect(request.headers["content-type"] == "application/json")
        let envelope = try JSONValue(json: request.body)
        #expect(envelope["jsonrpc"] == .string("2.0"))
        #expect(envelope["id"] != nil)
    }

    @Test func omitsAuthorizationWithoutToken() async throws {
        let server = try FakeRPCServer { _ in .result("{}") }
        defer { server.stop() }
        _ = try await RPCClient(server: server.url).callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        #expect(try #require(server.requests.first).headers["authorization"] == nil)
    }

    @Test func rawCallReturnsTheResultBytesUnchanged() async throws {
        let result = #"{ "b" : 1,"a":[1, 2.50, "x\"}"] , "c":{"d":null}}"#
        let server = try FakeRPCServer { _ in .result(result) }
        defer { server.stop() }
        let bytes = try await RPCClient(server: server.url).callRaw(
            method: "Apps.Get", paramsJSON: Data(#"{"app":"badoo"}"#.utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == result)
        #expect(try #require(server.requests.first).params == .object(["app": .string("badoo")]))
    }

    @Test(arguments: [#""text with } and ] and \" inside""#, #"[1,{"a":"]"},[]]"#, "42", "-1.5e3", "true", "null"])
    func rawResultsOfAnyShapeComeBackUnchanged(result: String) async throws {
        let server = try FakeRPCServer { _ in .result(result) }
        defer { server.stop() }
        let bytes = try await RPCClient(server: server.url).callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == result)
    }

    @Test func onlyTheTopLevelResultCounts() async throws {
        let body = #"{"jsonrpc":"2.0","meta":{"result":1,"error":{"code":5}},"error":null,"id":1,"result":{"x":2}}"#
        let server = try FakeRPCServer { _ in .http(status: 200, body: body) }
        defer { server.stop() }
        let bytes = try await RPCClient(server: server.url).callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"x":2}"#)
    }

    @Test func applicationErrorBecomesRegistryError() async throws {
        let server = try FakeRPCServer { _ in
            .error(#"{"code":5,"message":"apps/nope not found","data":{"status":"NOT_FOUND"}}"#)
        }
        defer { server.stop() }
        let error = await #expect(throws: RegistryError.self) {
            _ = try await RPCClient(server: server.url).call(API.AppsGet.self, .init(app: "nope"))
        }
        #expect(error == RegistryError(.notFound, "apps/nope not found"))
    }

    @Test func fieldViolationsAreKeptAndOtherDetailsIgnored() async throws {
        let server = try FakeRPCServer { _ in
            .error(
                #"{"code":3,"message":"bad route","data":{"status":"INVALID_ARGUMENT","details":["#
                    + #"{"field":"route.platforms.ios.since","description":"not a version"},"#
                    + #"{"@type":"RetryInfo","retryDelay":"1s"}]}}"#)
        }
        defer { server.stop() }
        let error = await #expect(throws: RegistryError.self) {
            _ = try await RPCClient(server: server.url).callRaw(method: "Routes.Create", paramsJSON: Data("{}".utf8))
        }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.fieldViolations == [FieldViolation(field: "route.platforms.ios.since", description: "not a version")]
        )
    }

    @Test func unknownStatusCodesAreKept() async throws {
        let server = try FakeRPCServer { _ in
            .error(#"{"code":42,"message":"from the future","data":{"status":"NEW"}}"#)
        }
        defer { server.stop() }
        let error = await #expect(throws: RegistryError.self) {
            _ = try await RPCClient(server: server.url).callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
        #expect(error?.code == StatusCode(rawValue: 42))
        #expect(error?.code.name == "CODE_42")
        #expect(error?.message == "from the future")
    }

    @Test(arguments: [-32700, -32600, -32601, -32602, -32603])
    func protocolErrorsBecomeClientErrors(code: Int) async throws {
        let server = try FakeRPCServer { _ in .error(#"{"code":\#(code),"message":"Method not found"}"#) }
        defer { server.stop() }
        let error = await #expect(throws: ClientError.self) {
            _ = try await RPCClient(server: server.url).callRaw(method: "Nope.Nope", paramsJSON: Data("{}".utf8))
        }
        #expect(error == .protocolError(code: code, message: "Method not found"))
        #expect(error?.isConnectionProblem == false)
    }

    @Test func httpStatusWithoutJSONRPCBody() async throws {
        let server = try FakeRPCServer { _ in .http(status: 502, body: "<html>bad gateway</html>") }
        defer { server.stop() }
        let error = await #expect(throws: ClientError.self) {
            _ = try await RPCClient(server: server.url).callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
        #expect(error == .httpStatus(502))
    }

    @Test func undecodableResponses() async throws {
        let server = try FakeRPCServer { request in
            request.method == "Apps.List" ? .http(status: 200, body: "not json") : .result(#"{"decision":42}"#)
        }
        defer { server.stop() }
        let client = RPCClient(server: server.url)
        let notJSON = await #expect(throws: ClientError.self) {
            _ = try await client.callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
        #expect(notJSON == .invalidResponse(reason: "the body is not a JSON-RPC response"))
        let wrongShape = await #expect(throws: ClientError.self) {
            _ = try await client.call(
                API.CanOpenCheck.self,
                .init(app: "badoo", platform: .ios, version: try Version("5.11"), url: "https://m.badoo.com/"))
        }
        guard case .invalidResponse = wrongShape else {
            Issue.record("expected invalidResponse, got \(String(describing: wrongShape))")
            return
        }
    }

    @Test func connectionRefusedIsAConnectionProblem() async throws {
        let port = try FakeRPCServer.closedPort()
        let client = RPCClient(server: URL(string: "http://127.0.0.1:\(port)")!, timeout: 5)
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
        #expect(error == .connectionFailed(reason: "connection refused"))
        #expect(error?.isConnectionProblem == true)
    }

    @Test func noAnswerInTimeIsTimedOut() async throws {
        let server = try FakeRPCServer { _ in .hang }
        defer { server.stop() }
        let error = await #expect(throws: ClientError.self) {
            _ = try await RPCClient(server: server.url, timeout: 0.5)
                .callRaw(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
        #expect(error == .timedOut)
        #expect(error?.isConnectionProblem == true)
    }

    /// A call's deadline for the tests that expect a second attempt. The client sends a call again only within
    /// what is left of its deadline, and in the parallel run (two cores, ~180 suites, many blocking a cooperative
    /// thread while a server starts) an awaiting test has been resumed 150 s after its answer arrived; a deadline
    /// that starvation cannot use up keeps these tests about the retry. The fake answers at once either way.
    private static let retryDeadline: TimeInterval = 600

    /// A server whose first connection closes without answering (a kept-alive connection a proxy's reload
    /// closed), then answers; and what it received.
    private static func closingOnce() throws -> FakeRPCServer {
        let seen = Locked(0)
        return try FakeRPCServer { _ in
            seen.withLock {
                $0 += 1; return $0
            } == 1 ? .close : .result(#"{"ok":true}"#)
        }
    }

    @Test(arguments: [
        ("CanOpen.Check", #"{"app":"badoo","platform":"ios","version":"5.0","url":"https://m.badoo.com/u/1"}"#),
        ("Routes.Create", #"{"app":"badoo","requestId":"r-1","route":{"id":"x"}}"#),
    ])
    func aReadOrAKeyedWriteIsSentAgainWhenTheConnectionClosesUnanswered(method: String, params: String) async throws {
        let server = try Self.closingOnce()
        defer { server.stop() }
        let result = try await RPCClient(server: server.url, timeout: Self.retryDeadline)
            .callRaw(method: method, paramsJSON: Data(params.utf8))
        #expect(String(decoding: result, as: UTF8.self) == #"{"ok":true}"#)
        #expect(server.requests.count == 2)
    }

    @Test func aWriteWithoutAKeyIsNotSentAgain() async throws {
        let server = try Self.closingOnce()
        defer { server.stop() }
        let error = await #expect(throws: ClientError.self) {
            _ = try await RPCClient(server: server.url, timeout: 5)
                .callRaw(method: "Routes.Create", paramsJSON: Data(#"{"app":"badoo","route":{"id":"x"}}"#.utf8))
        }
        // Linux's URLSession reports the closed connection as a malformed response; either way it is the caller's.
        #expect(error == .invalidResponse(reason: "malformed HTTP response") || error?.isConnectionProblem == true)
        #expect(server.requests.count == 1)
    }

    @Test func theBlockingCallSendsAReadAgainToo() throws {
        let server = try Self.closingOnce()
        defer { server.stop() }
        let result = try RPCClient(server: server.url, timeout: Self.retryDeadline)
            .callRawSync(method: "CanOpen.GetTable", paramsJSON: Data(#"{"app":"badoo"}"#.utf8))
        #expect(String(decoding: result, as: UTF8.self) == #"{"ok":true}"#)
        #expect(server.requests.count == 2)
    }

    @Test func paramsMustBeAnObject() async throws {
        let client = RPCClient(server: URL(string: "http://127.0.0.1:1")!)
        await #expect(throws: ClientError.invalidRequest(reason: "params must be a JSON object")) {
            _ = try await client.callRaw(method: "Apps.List", paramsJSON: Data("[1]".utf8))
        }
    }
}

@Suite("RPCClient blocking calls")
struct RPCClientBlockingTests {
    @Test func callSyncDecodesResultsAndErrors() throws {
        let server = try FakeRPCServer { request in
            request.method == "Apps.Get"
                ? .error(#"{"code":16,"message":"missing token"}"#)
                : .result(#"{"etag":"\"e1\"","notModified":true}"#)
        }
        defer { server.stop() }
        let client = RPCClient(server: server.url)
        let output = try client.callSync(
            API.CanOpenGetTable.self,
            .init(app: "badoo", platform: .ios, version: try Version("5.12.0"), ifNoneMatch: "\"e1\""))
        #expect(output.notModified)
        #expect(output.etag == "\"e1\"")
        #expect(output.table == nil)
        #expect(try #require(server.requests.first).params["ifNoneMatch"] == .string("\"e1\""))
        #expect(throws: RegistryError(.unauthenticated, "missing token")) {
            _ = try client.callSync(API.AppsGet.self, .init(app: "badoo"))
        }
    }

    @Test func callRawSyncReportsConnectionRefused() throws {
        let port = try FakeRPCServer.closedPort()
        let client = RPCClient(server: URL(string: "http://127.0.0.1:\(port)")!)
        #expect(throws: ClientError.connectionFailed(reason: "connection refused")) {
            _ = try client.callRawSync(method: "Apps.List", paramsJSON: Data("{}".utf8))
        }
    }
}
