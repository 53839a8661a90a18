import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Synchronization

/// A real daemon on 127.0.0.1, ephemeral port, small thread pool, silent log; stopped by `stop()`.
final class TestServer: Sendable {
    let server: HTTPServer
    let holds: TestMethods.Holds
    let readyFlag: ReadyFlag

    /// Shared readiness the closure reads.
    final class ReadyFlag: Sendable {
        let value = Atomic<Bool>(true)
    }

    func setReady(_ ready: Bool) { readyFlag.value.store(ready, ordering: .relaxed) }

    var port: UInt16 { server.port }

    init(
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }, limits: JSONRPCLimits = JSONRPCLimits(),
        documents: (any StaticDocumentProvider)? = nil, log: RequestLog = .silent
    ) throws {
        var configuration = HTTPServerConfiguration(port: 0, threadPoolSize: 2)
        configuration.shutdownGracePeriod = .seconds(5)
        configure(&configuration)
        let holds = TestMethods.Holds()
        let metrics = ServerMetrics()
        let dispatcher = JSONRPCDispatcher(
            methods: TestMethods.table(holds: holds), authenticator: TestMethods.Tokens(), limits: limits,
            metrics: metrics, log: log)
        let ready = ReadyFlag()
        self.readyFlag = ready
        self.holds = holds
        server = HTTPServer(
            configuration: configuration, dispatcher: dispatcher, documents: documents,
            readiness: { ready.value.load(ordering: .relaxed) }, metrics: metrics, log: log)
        try server.start()
    }

    func stop() { server.stop() }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: port) }

    /// POSTs a JSON-RPC body on a fresh connection.
    func rpc(_ body: String, headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try client().request(
            "POST", "/rpc", headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
    }

    /// POSTs a JSON-RPC body and parses the answer.
    func call(_ body: String, headers: [(String, String)] = []) throws -> JSONValue {
        let response = try rpc(body, headers: headers)
        return try JSONValue(json: Data(response.body))
    }
}

extension JSONValue {
    var int: Int? {
        if case .number(let n) = self { return Int(n) }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    var isNull: Bool { self == .null }
}
