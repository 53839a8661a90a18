import Foundation
import RegistryTesting
import RouteCore
import Testing

@testable import JSONRPC
@testable import RegistryAPI
import HTTPServing

/// The OpenRPC document is the single source of truth: the table the server dispatches, the descriptors and
/// the document agree exactly, method by method, including who may call each one.
@Suite struct OpenRPCConformanceTests {
    private func documentMethods() throws -> [String: String] {
        let bytes = try #require(OpenRPCDocument.bytes)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let methods = try #require(document["methods"] as? [[String: Any]])
        var table: [String: String] = [:]
        for method in methods {
            table[try #require(method["name"] as? String)] = try #require(method["x-access"] as? String)
        }
        return table
    }

    @Test func everyServedMethodIsDocumentedAndViceVersa() throws {
        let documented = try documentMethods()
        // The table the running server's dispatcher really serves, not the list it was built from.
        let server = try TestRegistryServer(suite: "openrpc_table")
        defer { server.shutdown() }
        let dispatcher = server.server.dispatcher
        var served: [String: String] = [:]
        for (name, method) in dispatcher.methods { served[name] = method.access.name }
        #expect(Set(served.keys).subtracting(documented.keys).sorted() == [], "served but not documented")
        #expect(Set(documented.keys).subtracting(served.keys).sorted() == [], "documented but not served")
        for (name, access) in served { #expect(documented[name] == access, "x-access of \(name)") }
        // The descriptors the clients call through (`API.all`) are exactly the served methods.
        var described: [String: String] = [RPCDiscover.name: RPCDiscover.access.rawValue]
        for method in API.all { described[method.name] = method.access.rawValue }
        #expect(described == served)
    }

    /// `x-effect` is what the generated clients retry by: it must say what each descriptor's traits say.
    @Test func everyMethodsEffectIsItsDescriptors() throws {
        let bytes = try #require(OpenRPCDocument.bytes)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        var effects: [String: String] = [:]
        for method in try #require(document["methods"] as? [[String: Any]]) {
            effects[try #require(method["name"] as? String)] = method["x-effect"] as? String
        }
        var declared = [RPCDiscover.name: "read"]
        for method in API.all { declared[method.name] = method.isWrite ? "write" : "read" }
        #expect(effects == declared)
    }

    @Test func rpcDiscoverServesTheDocumentByteForByte() async throws {
        let server = try TestRegistryServer(suite: "discover")
        defer { server.shutdown() }
        let body = Data(#"{"jsonrpc":"2.0","id":"d","method":"rpc.discover"}"#.utf8)
        let (data, _) = try await server.post(body, token: nil)
        let response = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let result = try #require(response["result"] as? [String: Any])
        let served = try #require(result["methods"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(Set(served) == Set(try documentMethods().keys))
        #expect(response["id"] as? String == "d")
    }
}
