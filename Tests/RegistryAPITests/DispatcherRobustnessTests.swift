import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

/// The dispatcher in-process (`handle`), fed mutated bodies: whatever arrives, it answers with JSON (or
/// nothing) and never crashes.
@Suite("Dispatcher robustness")
struct DispatcherRobustnessTests {
    let dispatcher = JSONRPCDispatcher(
        methods: TestMethods.table(), authenticator: TestMethods.Tokens())

    private func transport() -> RPCTransport { RPCTransport(requestID: "t-1", bearerToken: "a") }

    @Test("handle answers in-process, deferred calls included")
    func inProcess() {
        let reply = dispatcher.handle(
            Array(#"{"jsonrpc":"2.0","method":"Test.Later","params":{"ms":10,"value":"p"},"id":1}"#.utf8),
            transport: transport())
        #expect(reply == .json(Array(#"{"jsonrpc":"2.0","id":1,"result":{"text":"p"}}"#.utf8)))
        #expect(
            dispatcher.handle(Array(#"{"jsonrpc":"2.0","method":"Test.Echo"}"#.utf8), transport: transport())
                == .noContent)
        #expect(dispatcher.methodNames.contains("rpc.discover"))
    }

    @Test("5,000 mutated bodies each get a JSON answer or none")
    func mutations() throws {
        let seeds = [
            #"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"a\u00e9","times":2},"id":"x"}"#,
            #"[{"jsonrpc":"2.0","method":"Test.Nested","params":{"route":{"platforms":{"ios":{"since":"1"}}}},"id":1},{"jsonrpc":"2.0","method":"Test.Read"}]"#,
            #"{"jsonrpc":"2.0","method":"Test.Admin","params":{},"id":-1.5e3}"#,
        ].map { Array($0.utf8) }
        var generator = SplitMix(seed: 0x5eed)
        let alphabet = Array(#"{}[]",:\ 0123456789.eE-+tfnulrsa"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF, 0xE2, 0x80]
        for round in 0..<5000 {
            var body = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(body.count + 1))
                switch generator.next() % 3 {
                case 0 where position < body.count: body.remove(at: position)
                case 1: body.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                default:
                    if position < body.count {
                        body[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    }
                }
            }
            switch dispatcher.handle(body, transport: transport()) {
            case .json(let bytes):
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil, "round \(round)")
            case .noContent, .limited:
                break
            }
        }
    }
}

/// A small deterministic generator, so a failure reproduces.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
