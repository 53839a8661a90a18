import Foundation
import HTTPServing
import JSONBytes
import JSONRPC
import RegistryAPI
import RouteCore

/// The JSON-RPC dispatcher on raw bodies, in-process: the envelope scanner, batches, access checks and
/// params decoding into the registry's real input types, with handlers that only validate the model (as the service would first) and then refuse. Every body is
/// answered with valid JSON (or nothing, for notifications).
enum JSONRPCFuzz {
    /// With the server's params contract, so the schema validator and its pattern matcher are fuzzed too.
    private static let dispatcher = JSONRPCDispatcher(
        methods: methods(), authenticator: AnyToken(), contract: .registry)

    /// Handlers validate what the service would validate first, then refuse: nothing is stored.
    private static func methods() -> [RPCMethod] {
        let refusal = RegistryError(.unimplemented, "fuzz")
        var table: [RPCMethod] = []
        table.append(
            RPCMethod(API.AppsCreate.self) { _, input throws -> API.AppsCreate.Output in
                try ModelValidation.app(input.app)
                throw refusal
            })
        table.append(
            RPCMethod(API.RoutesCreate.self) { _, input throws -> API.RoutesCreate.Output in
                try ModelValidation.route(input.route)
                throw refusal
            })
        table.append(
            RPCMethod(API.RoutesUpdate.self) { _, input throws -> API.RoutesUpdate.Output in
                try ModelValidation.route(input.route)
                throw refusal
            })
        table.append(
            RPCMethod(API.DomainsCreate.self) { _, input throws -> API.DomainsCreate.Output in
                try ModelValidation.domain(input.domain)
                throw refusal
            })
        table.append(RPCMethod(API.ReleasesPublish.self) { _, _ throws -> API.ReleasesPublish.Output in throw refusal })
        table.append(RPCMethod(API.CanOpenCheck.self) { _, _ throws -> API.CanOpenCheck.Output in throw refusal })
        table.append(RPCMethod(API.AuditList.self) { _, _ throws -> API.AuditList.Output in throw refusal })
        table.append(RPCMethod(FuzzEcho.self) { _, input in input })
        return table
    }

    /// A method the params contract does not describe, so the fuzzer reaches that path of the dispatcher too.
    private enum FuzzEcho: RPCMethodDescriptor {
        static let name = "Fuzz.Echo"
        static let access = Access.public
        static let traits = MethodTraits.read(from: .snapshot)
        static func scope(_ _: Input) -> CallScope { .unscoped }
        typealias Input = Empty
        typealias Output = Empty
    }

    /// Every bearer token is an admin: the fuzzer reaches params decoding of every method.
    private struct AnyToken: Authenticator {
        func principal(forToken token: String) throws -> RPCPrincipal? {
            RPCPrincipal(id: "fuzz", access: Access.admin.rpc, value: Principal(id: "fuzz", role: .admin))
        }
    }

    static func run(_ bytes: [UInt8]) {
        let reply = dispatcher.handle(
            bytes, transport: RPCTransport(requestID: "fuzz", bearerToken: "fuzz", host: "fuzz"))
        switch reply {
        case .noContent:
            break
        case .json(let body), .limited(let body, _):
            // The strict grammar (RouteCore's): Foundation reads trailing commas and cannot read huge exponents.
            invariant(
                (try? StrictJSON.validate(body)) != nil, "reply is not JSON: \(String(decoding: body, as: UTF8.self))")
            invariant(
                body.first == UInt8(ascii: "{") || body.first == UInt8(ascii: "["), "reply is not an object or array")
        }
    }
}
