import Foundation
import RouteCore
import RouteRegistryClient
import Testing

/// The Swift client's methods against `Schema/registry.openrpc.json`, the API's source of truth.
@Suite("RouteRegistryClient and the OpenRPC document")
struct OpenRPCConformanceTests {
    /// One method of the document: its access and its params (name → required).
    struct Method {
        var access: String
        var params: [String: Bool]
    }

    static func documentMethods() throws -> [String: Method] {
        let document = try JSONValue(json: Data(contentsOf: try schemaURL()))
        guard case .array(let methods)? = document["methods"] else { throw CocoaError(.fileReadCorruptFile) }
        var out: [String: Method] = [:]
        for method in methods {
            guard let name = method["name"]?.stringValue, let access = method["x-access"]?.stringValue,
                case .array(let params)? = method["params"]
            else { throw CocoaError(.fileReadCorruptFile) }
            var names: [String: Bool] = [:]
            for param in params {
                guard let paramName = param["name"]?.stringValue else { throw CocoaError(.fileReadCorruptFile) }
                names[paramName] = param["required"] == .bool(true)
            }
            out[name] = Method(access: access, params: names)
        }
        return out
    }

    /// `Schema/registry.openrpc.json` of the repository this file is in (Clients/swift/Tests/…).
    static func schemaURL() throws -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Schema/registry.openrpc.json")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    @Test func everyMethodTheClientCanCallIsInTheDocumentWithTheSameAccess() throws {
        let document = try Self.documentMethods()
        let client = Dictionary(uniqueKeysWithValues: API.all.map { ($0.name, $0.access.rawValue) })
        #expect(Set(client.keys) == Set(document.keys).subtracting(["rpc.discover"]))
        for (name, access) in client {
            #expect(document[name]?.access == access, "\(name)")
        }
    }

    /// The client describes `CanOpen.GetTable`'s result itself (an app links no API descriptors): its members
    /// must be the documented ones, the required ones always written.
    @Test func theClientsTableAnswerHasTheDocumentedResultMembers() throws {
        let document = try JSONValue(json: Data(contentsOf: try Self.schemaURL()))
        guard case .array(let methods)? = document["methods"],
            let method = methods.first(where: { $0["name"]?.stringValue == "CanOpen.GetTable" }),
            case .object(let properties)? = method["result"]?["schema"]?["properties"],
            case .array(let required)? = method["result"]?["schema"]?["required"]
        else { throw CocoaError(.fileReadCorruptFile) }
        let table = try BadooFixture.table(BadooFixture.registry(), version: "5.12.0").table
        let full = try JSONValue(
            json: CanonicalJSON.encode(CanOpenTableAnswer(etag: "\"e\"", notModified: false, table: table)))
        let bare = try JSONValue(
            json: CanonicalJSON.encode(CanOpenTableAnswer(etag: "\"e\"", notModified: true, table: nil)))
        guard case .object(let fullMembers) = full, case .object(let bareMembers) = bare else {
            throw CocoaError(.fileReadCorruptFile)
        }
        #expect(Set(fullMembers.keys) == Set(properties.keys))
        #expect(Set(required.compactMap(\.stringValue)).isSubset(of: Set(bareMembers.keys)))
    }

    @Test func readHelpersSendExactlyTheDocumentedParams() async throws {
        let server = try FakeRPCServer { request in
            switch request.method {
            case "CanOpen.GetTable": .result(#"{"etag":"\"e\"","notModified":true}"#)
            case "CanOpen.Check": .result(#"{"decision":"not_associated"}"#)
            case "Links.Resolve":
                .result(#"{"target":"https://m.badoo.com/u/1","app":"badoo","decision":{"decision":"open_in_app"}}"#)
            default:
                .result(
                    #"{"host":"m.badoo.com","kind":"aasa","revision":3,"etag":"\"e\"","cause":"publish ios 5.12.0","#
                        + #""createTime":"2026-11-29T18:00:00Z","document":{"applinks":{"details":[]}}}"#)
            }
        }
        defer { server.stop() }
        let client = RPCClient(server: server.url)
        let version = try Version("5.12.0")
        _ = try await client.canOpenTable(app: "badoo", platform: .ios, version: version, ifNoneMatch: "\"e\"")
        _ = try await client.check(app: "badoo", platform: .ios, version: version, url: "https://m.badoo.com/")
        let resolved = try await client.resolveLink(url: "https://go.badoo.com/x", platform: .ios, version: version)
        #expect(resolved.target == "https://m.badoo.com/u/1")
        // A tool that imports RouteCore calls any method through the server's own descriptors.
        let association = try await client.call(
            API.AssociationsGet.self, .init(host: "m.badoo.com", kind: .aasa, revision: 3))
        #expect(association.revision == 3)
        #expect(association.document["applinks"] != nil)

        let document = try Self.documentMethods()
        #expect(
            server.requests.map(\.method) == ["CanOpen.GetTable", "CanOpen.Check", "Links.Resolve", "Associations.Get"])
        for request in server.requests {
            let documented = try #require(document[request.method])
            guard case .object(let sent) = request.params else {
                Issue.record("\(request.method): params are not an object")
                continue
            }
            let required = Set(documented.params.filter(\.value).keys)
            #expect(Set(sent.keys).isSubset(of: Set(documented.params.keys)), "\(request.method)")
            #expect(required.isSubset(of: Set(sent.keys)), "\(request.method)")
        }
    }
}
