import Foundation
import RegistryTesting
import RouteCore
import Testing

@testable import JSONRPC
@testable import RegistryAPI
import HTTPServing

/// The table the running server's dispatcher really serves agrees with the OpenRPC document: the same
/// methods, each with the same access, its descriptor's input (the type its handler receives, by
/// `RPCMethod(Descriptor.self)`) taking exactly the documented params, and each fast path reading only
/// documented params, every required one.
@Suite struct DispatchTableTests {
    /// The stored properties of `D.Input` decoded from `json`, by their wire names.
    static func inputFields<D: RPCMethodDescriptor>(_ descriptor: D.Type, _ json: Data) throws -> [String] {
        let input = try JSONDecoder().decode(D.Input.self, from: json)
        // Swift spells a trailing `ID` as one acronym, the API as a word (`requestID` ↔ `requestId`).
        return Mirror(reflecting: input).children.compactMap(\.label).map {
            $0.hasSuffix("ID") ? $0.dropLast(2) + "Id" : $0
        }
    }

    /// The input fields of the method `name` (`rpc.discover` takes none).
    static func inputFields(of name: String, _ json: Data) throws -> [String] {
        let described: [any RPCMethodDescriptor.Type] = API.all + [RPCDiscover.self]
        let descriptor = try #require(described.first { $0.name == name }, "\(name) is served but not described")
        return try inputFields(descriptor, json)
    }

    @Test func theServedTableIsTheDocumentedOne() throws {
        let bytes = try #require(OpenRPCDocument.bytes)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        var probes = try ContractProbes(document: document)
        let server = try TestRegistryServer(suite: "dispatch_table")
        defer { server.shutdown() }
        let dispatcher = server.server.dispatcher

        let documented = try #require(document["methods"] as? [[String: Any]])
        #expect(Set(dispatcher.methods.keys) == Set(documented.compactMap { $0["name"] as? String }))
        for method in documented {
            let name = try #require(method["name"] as? String)
            let served = try #require(dispatcher.methods[name], "\(name) is documented but not served")
            #expect(served.access.name == method["x-access"] as? String, "access of \(name)")
            let params = method["params"] as? [[String: Any]] ?? []
            // Every documented param, with a valid value, decoded into the handler's own input type.
            var sample: [String: Any] = [:]
            for param in params {
                let key = try #require(param["name"] as? String)
                sample[key] = probes.sample(param["schema"]!, at: "\(name).\(key)")
            }
            let json = try JSONSerialization.data(withJSONObject: sample)
            let fields = try Self.inputFields(of: name, json)
            #expect(Set(fields) == Set(sample.keys), "\(name): the handler takes \(fields.sorted())")
            // Only the documented required params are required by the handler too.
            let required = params.filter { $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
            let minimal = try JSONSerialization.data(withJSONObject: sample.filter { required.contains($0.key) })
            #expect(throws: Never.self, "\(name) requires an optional param") {
                _ = try Self.inputFields(of: name, minimal)
            }
            if dispatcher.flatReaders[name] != nil, let keys = served.flatKeys {
                #expect(Set(keys).isSubset(of: sample.keys), "\(name)'s flat reader reads \(keys)")
                #expect(Set(required).isSubset(of: keys), "\(name)'s flat reader skips a required param")
            }
        }
        #expect(
            !dispatcher.flatReaders.isEmpty && dispatcher.flatReaders.keys.allSatisfy { dispatcher.methods[$0] != nil })
        #expect(probes.unsatisfiable == [])
    }
}
