import Foundation
import RegistryTesting
import RouteCore
import Testing

@testable import JSONRPC
@testable import RegistryAPI

/// Each method's traits are declared once, on its descriptor (`MethodTraits`); everything that treats
/// methods differently derives from them. These tests walk the method table and check every derived
/// trait against the descriptor, and that what a method does matches what it declares.
@Suite struct MethodTraitsTests {
    static let descriptors: [any RPCMethodDescriptor.Type] = API.all + [RPCDiscover.self]

    /// The dispatcher the server runs answers each method as its descriptor says: a write as a write (past
    /// its deadline, outside the batch budget), a read from the database off the HTTP workers.
    @Test func theServedTableDerivesEveryTraitFromItsDescriptor() throws {
        let server = try TestRegistryServer(suite: "method_traits")
        defer { server.shutdown() }
        let dispatcher = server.server.dispatcher
        #expect(Set(dispatcher.methods.keys) == Set(Self.descriptors.map { $0.name }))
        for method in Self.descriptors {
            let served = try #require(dispatcher.methods[method.name])
            #expect(served.changesState == method.isWrite, "\(method.name) changes state")
            #expect(dispatcher.isWrite(method.name) == method.isWrite, "\(method.name) is answered as a write")
            #expect(
                served.waitsOnDatabase == (method.traits.source == .database && !served.isDeferred),
                "\(method.name) waits on the database")
            #expect(served.access == method.access.rpc, "access of \(method.name)")
            #expect(
                served.costGrowsWithParams == method.traits.costGrowsWithInput,
                "\(method.name) runs long calls at low priority")
        }
        // The one public call whose cost grows with what a stranger sends; the server has its lane.
        #expect(dispatcher.methods[API.CanOpenCheck.name]?.costGrowsWithParams == true)
        #expect(dispatcher.lowPriority != nil)
        // Reads that need a strong role are still reads (they were once answered like writes).
        for name in [API.TokensList.name, API.AssociationsPreview.name, API.AuditList.name] {
            #expect(!dispatcher.isWrite(name), "\(name) is a read")
        }
        #expect(dispatcher.isWrite(API.RoutesCreate.name) && dispatcher.isWrite(API.TokensCreate.name))
    }

    /// A write goes through the database; only a write may change the snapshot or take a `requestId`.
    @Test func theTraitsAreConsistent() {
        for method in Self.descriptors {
            if method.isWrite { #expect(method.traits.source == .database, "\(method.name)") }
            if !method.isWrite { #expect(!method.traits.changesSnapshot && !method.takesRequestID, "\(method.name)") }
        }
        // Links live in their own index, webhooks in tables of their own: their writes leave the snapshot as it was.
        #expect(
            Set(API.snapshotNeutralWrites) == [
                API.LinksCreate.name, API.LinksBatchCreate.name, API.LinksUpdate.name, API.LinksDelete.name,
                API.WebhooksCreate.name, API.WebhooksDelete.name,
            ])
        #expect(API.RequestID.methods == Set(API.all.filter { $0.isIdempotent }.map { $0.name }))
    }

    /// Every method declared a read, called by an admin with its documented params, writes nothing: the
    /// audit (which every write appends to) and the served state stay as they were.
    @Test func everyReadLeavesTheRegistryAsItWas() async throws {
        let bytes = try #require(OpenRPCDocument.bytes)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let probes = try ContractProbes(document: document)
        let server = try TestRegistryServer(suite: "method_traits_reads")
        defer { server.shutdown() }
        _ = try await server.result(
            "Apps.Create", ["app": ["id": "a"], "requestId": "traits-seed"])
        let before = try await auditCount(server)
        var answered = 0
        // The long poll waits for a change that never comes; it is a read by its descriptor all the same.
        for method in API.all where !method.isWrite && method.name != API.AssociationsWatch.name {
            let params = probes.baselines[method.name] ?? [:]
            let response = try await server.call(method.name, params)
            if response["result"] != nil { answered += 1 }
        }
        #expect(answered > 5, "the reads must mostly answer for this to prove anything")
        #expect(try await auditCount(server) == before)
    }

    private func auditCount(_ server: TestRegistryServer) async throws -> Int {
        let page = try await server.result("Audit.List", ["pageSize": 1000])
        return (page["entries"] as? [Any])?.count ?? -1
    }
}
