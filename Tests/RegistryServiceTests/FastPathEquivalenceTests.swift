import Foundation
import RegistryTesting
import Synchronization
import Testing

@testable import RegistryAPI
import HTTPServing
@testable import JSONRPC

/// The flat params readers of `CanOpen.Check` and `CanOpen.GetTable` must give byte for byte what decoding
/// the params gives, errors included: the same service behind two dispatchers, one whose CanOpen methods
/// read plain calls flat, one decoding every call, on calls built from the pieces that matter (escapes,
/// ETags current and stale, bad values, unknown apps and members).
@Suite(.serialized) struct FastPathEquivalenceTests {
    @Test func fastPathsAnswerAsTheHandlers() async throws {
        let server = try TestRegistryServer(suite: "fast_paths")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let service = server.service
        let others = RegistryMethods.table(service, openRPC: Array("{}".utf8)).filter { !$0.name.hasPrefix("CanOpen.") }
        let decoded = others + RegistryMethods.canOpen(service, check: nil, getTable: nil)
        let flat =
            others
            + RegistryMethods.canOpen(
                service, check: counted(CanOpenFlatParams.check, "CanOpen.Check"),
                getTable: counted(CanOpenFlatParams.getTable, "CanOpen.GetTable"))
        // Without the API description's rules, and with them as the server runs: the fast paths check their
        // flat strings against the rules themselves, so a value the rules refuse must still get the refusal.
        let pairs = [nil, ParamsContract.registry].map { contract in
            (
                plain: JSONRPCDispatcher(methods: decoded, contract: contract),
                fast: JSONRPCDispatcher(methods: flat, contract: contract)
            )
        }
        let etag = try await server.result(
            "CanOpen.GetTable", ["app": "badoo", "platform": "ios", "version": "5.11.0"]
        ).string("etag")!
        let escapedETag = etag.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")

        let apps = ["badoo", "nobody", "bad\\\"oo", "Bad App", String(repeating: "a", count: 200)]
        let platforms = ["ios", "android", "web"]
        let versions = ["5.11.0", "5.12", "4", "x.y", "5.11.0.0"]
        let urls = [
            "https://m.badoo.com/l/a/42", "https:\\/\\/m.badoo.com\\/u\\/7?ul_fallback=1",
            "https://m.badoo.com/u/\\\"q\\\"", "HTTPS://M.BADOO.COM./u/1#x", "https://other.com/u/1", "not a url",
            "https://m.badoo.com/u/\\u00e9", "https://m.badoo.com/u/\u{e9}?a=b&ul_fallback=", "",
            "https://m.badoo.com/u/" + String(repeating: "7", count: 8200),
        ]
        var bodies: [String] = []
        for app in apps {
            for platform in platforms {
                for version in versions {
                    for url in urls {
                        bodies.append(
                            #"{"jsonrpc":"2.0","id":1,"method":"CanOpen.Check","params":{"app":"\#(app)","platform":"\#(platform)","version":"\#(version)","url":"\#(url)"}}"#
                        )
                    }
                    for ifNoneMatch in [escapedETag, "\\\"stale\\\"", "", "\\u0022x"] {
                        bodies.append(
                            #"{"jsonrpc":"2.0","id":"t","method":"CanOpen.GetTable","params":{"app":"\#(app)","platform":"\#(platform)","version":"\#(version)","ifNoneMatch":"\#(ifNoneMatch)"}}"#
                        )
                    }
                    bodies.append(
                        #"{"jsonrpc":"2.0","id":2,"method":"CanOpen.GetTable","params":{"app":"\#(app)","platform":"\#(platform)","version":"\#(version)"}}"#
                    )
                }
            }
        }
        bodies.append(
            #"{"jsonrpc":"2.0","id":3,"method":"CanOpen.Check","params":{"app":"badoo","platform":"ios","version":"5.11.0","url":"https://m.badoo.com/u/1","extra":"x"}}"#
        )
        var notModified = 0
        var differences: [String] = []
        var refusedByContract = 0
        var takenPerPair: [[String: Int]] = []
        for (plain, fast) in pairs {
            answeredFast.byMethod.withLock { $0 = [:] }
            defer { takenPerPair.append(answeredFast.byMethod.withLock { $0 }) }
            for body in bodies {
                let transport = RPCTransport(requestID: "r")
                let expected = plain.handle(Array(body.utf8), transport: transport)
                let answered = fast.handle(Array(body.utf8), transport: transport)
                let answer = text(answered)
                if answer.contains(#""notModified":true"#) { notModified += 1 }
                if fast.contract != nil && answer.contains("-32602") { refusedByContract += 1 }
                if expected != answered && differences.count < 5 {
                    differences.append(
                        "\(body.prefix(300))\n  handler: \(text(expected).prefix(300))\n  fast:    \(answer.prefix(300))"
                    )
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(bodies.count > 500)
        #expect(notModified >= 1, "the 304 path was never taken")
        #expect(refusedByContract > 100, "the description's rules refused only \(refusedByContract) calls")
        // Every valid combination must really be read flat (the rest are errors the decoder answers), or the
        // comparison proves little.
        // With and without the rules.
        for taken in takenPerPair {
            #expect(taken["CanOpen.Check", default: 0] >= 40 && taken["CanOpen.GetTable", default: 0] >= 20, "\(taken)")
        }
    }

    /// Calls read flat, by method.
    private final class Counts: Sendable {
        let byMethod = Mutex<[String: Int]>([:])
    }

    private let answeredFast = Counts()

    /// `params`, counting the calls it reads.
    private func counted<Input>(_ params: FlatParams<Input>, _ method: String) -> FlatParams<Input> {
        FlatParams(keys: params.keys) { [answeredFast] values in
            let input = params.build(values)
            if input != nil { answeredFast.byMethod.withLock { $0[method, default: 0] += 1 } }
            return input
        }
    }

    private func text(_ reply: RPCReply) -> String {
        switch reply {
        case .json(let bytes): String(decoding: bytes, as: UTF8.self)
        case .noContent: "204"
        case .limited(let bytes, let seconds): "429 \(seconds) " + String(decoding: bytes, as: UTF8.self)
        }
    }
}
