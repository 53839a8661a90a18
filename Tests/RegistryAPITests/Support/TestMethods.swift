import Dispatch
import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Synchronization

/// The tiny method table the transport tests call: each method exercises one path of the dispatcher.
enum TestMethods {
    struct EchoInput: Codable, Sendable {
        var text: String
        var times: Int?
    }

    struct EchoOutput: Codable, Sendable {
        var text: String
    }

    struct NestedInput: Codable, Sendable {
        struct Route: Codable, Sendable {
            struct Platforms: Codable, Sendable {
                struct IOS: Codable, Sendable { var since: String }
                var ios: IOS
            }
            var platforms: Platforms
        }
        var route: Route
        var tags: [String]?
    }

    struct DelayInput: Codable, Sendable {
        var ms: Int
        var value: String?
    }

    struct WhoAmI: Codable, Sendable {
        var id: String?
        var role: String?
    }

    struct NotANumber: Codable, Sendable {
        var value = Double.nan
    }

    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "SECRET-DETAIL from a database driver" }
    }

    /// Holds completions of `Test.Hold` calls until a test completes them.
    final class Holds: Sendable {
        let pending = Mutex<[RPCCompletion<EchoOutput>]>([])

        var count: Int { pending.withLock { $0.count } }

        func completeAll(_ text: String) {
            let all = pending.withLock { list in
                defer { list = [] }
                return list
            }
            for completion in all { completion.succeed(EchoOutput(text: text)) }
        }
    }

    static let openRPC = Array(#"{"openrpc":"1.3.2","info":{"title":"test","version":"1"},"methods":[]}"#.utf8)

    static func table(holds: Holds = Holds()) -> [RPCMethod] {
        [
            RPCMethod(Echo.self) { _, input in EchoOutput(text: String(repeating: input.text, count: input.times ?? 1))
            },
            RPCMethod(Nested.self) { _, input in EchoOutput(text: input.route.platforms.ios.since) },
            RPCMethod(NotFound.self) { _, _ in throw RegistryError.notFound("apps/ghost") },
            RPCMethod(BadField.self) { _, _ in
                throw RegistryError.invalidArgument(field: "route.platforms.ios.since", "not a version")
            },
            RPCMethod(Crash.self) { _, _ in throw SecretFailure() },
            RPCMethod(BadOutput.self) { _, _ in NotANumber() },
            RPCMethod(Sleep.self) { _, input in
                usleep(UInt32(input.ms) * 1000)
                return EchoOutput(text: input.value ?? "slept")
            },
            RPCMethod(SlowWrite.self) { _, input in
                usleep(UInt32(input.ms) * 1000)
                return EchoOutput(text: input.value ?? "written")
            },
            RPCMethod(Read.self) { ctx, _ in WhoAmI(id: ctx.principal?.id, role: ctx.principal?.access.name) },
            RPCMethod(Release.self) { ctx, _ in WhoAmI(id: ctx.principal?.id, role: ctx.principal?.access.name) },
            RPCMethod(Admin.self) { ctx, _ in WhoAmI(id: ctx.principal?.id, role: ctx.principal?.access.name) },
            RPCMethod(Public.self) { ctx, _ in WhoAmI(id: ctx.principal?.id, role: ctx.principal?.access.name) },
            RPCMethod.deferred(Later.self) { _, input, done in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(input.ms)) {
                    done.succeed(EchoOutput(text: input.value ?? "later"))
                    done.succeed(EchoOutput(text: "second completion must be ignored"))
                }
            },
            RPCMethod.deferred(Now.self) { _, input, done in done.succeed(EchoOutput(text: input.text)) },
            RPCMethod.deferred(LaterFail.self) { _, input, done in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(input.ms)) {
                    done.fail(RegistryError.aborted("changed meanwhile"))
                }
            },
            RPCMethod.deferred(Hold.self) { _, _, done in holds.pending.withLock { $0.append(done) } },
            RPCMethod.discover(openRPCDocument: openRPC),
        ]
    }

    /// Tokens: `r` reader, `w` releaser, `a` admin; anything else is unknown.
    struct Tokens: Authenticator {
        func principal(forToken token: String) throws -> RPCPrincipal? {
            let principal: Principal
            switch token {
            case "r": principal = Principal(id: "tok-reader", role: .reader)
            case "w": principal = Principal(id: "tok-releaser", role: .releaser)
            case "a": principal = Principal(id: "tok-admin", role: .admin)
            default: return nil
            }
            return RPCPrincipal(id: principal.id, access: principal.role.rpc, value: principal)
        }
    }
}
