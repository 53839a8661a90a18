import Foundation
import JSONRPC
import Synchronization
import Testing

/// The failed sign-in limit in the engine: wrong tokens from one address are answered UNAUTHENTICATED up to the
/// limit, then RESOURCE_EXHAUSTED with HTTP 429 (`RPCReply.limited`) until the lockout ends; one report per
/// burst; a valid token from the same address, and every other address, unaffected; memory bounded.
@Suite("Sign-in limit")
struct SignInLimiterTests {
    final class Reports: JSONRPCObserver {
        let lockouts = Mutex<[SignInLimiter.Lockout]>([])
        func callFinished(method: String, status: String) {}
        func internalFailure(requestID: String, method: String, error: any Error) {}
        func signInsLimited(_ lockout: SignInLimiter.Lockout) { lockouts.withLock { $0.append(lockout) } }
    }

    static let body = Array(#"{"jsonrpc":"2.0","method":"Test.Read","id":1}"#.utf8)

    static func call(_ dispatcher: JSONRPCDispatcher, token: String?, from address: String = "192.0.2.7") -> RPCReply {
        dispatcher.handle(body, transport: RPCTransport(requestID: "r", bearerToken: token, remoteAddress: address))
    }

    static func code(_ reply: RPCReply) -> Int? {
        let bytes: [UInt8]
        switch reply {
        case .json(let json), .limited(let json, _): bytes = json
        case .noContent: return nil
        }
        let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        return ((object?["error"] as? [String: Any])?["code"] as? NSNumber)?.intValue
    }

    @Test func aBurstIsLimitedReportedOnceAndEnds() async throws {
        let reports = Reports()
        let limiter = SignInLimiter(policy: .init(maxFailures: 2, lockout: .seconds(2)))
        let dispatcher = JSONRPCDispatcher(
            methods: TestMethods.table(), authenticator: TestMethods.Tokens(), observer: reports, signIns: limiter)
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 16)
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 16)
        let limited = Self.call(dispatcher, token: "wrong")
        guard case .limited(_, let seconds) = limited else {
            Issue.record("the third failure must be limited: \(limited)")
            return
        }
        #expect(seconds == 2)
        #expect(Self.code(limited) == 8)
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 8)
        // Valid callers: the same address with a valid token, and another address with a wrong one.
        #expect(Self.code(Self.call(dispatcher, token: "r")) == nil)
        #expect(Self.code(Self.call(dispatcher, token: "wrong", from: "198.51.100.1")) == 16)
        // No token is no sign-in: answered UNAUTHENTICATED, never limited.
        #expect(Self.code(Self.call(dispatcher, token: nil)) == 16)
        let reported = reports.lockouts.withLock { $0 }
        #expect(reported.map(\.address) == ["192.0.2.7"])
        #expect(reported.first?.failures == 2 && reported.first?.retryAfterSeconds == 2)
        #expect(limiter.failures == 5 && limiter.lockouts == 1 && limiter.refusals == 2)

        try await Task.sleep(for: .milliseconds(2_100))
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 16)
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 16)
        #expect(Self.code(Self.call(dispatcher, token: "wrong")) == 8)
        #expect(reports.lockouts.withLock { $0.count } == 2, "one report per burst")
    }

    /// Seen from outside: a locked address stays locked while the table has room, and is forgotten (its next
    /// failure counted afresh) once `maxAddresses` newer addresses need the room.
    @Test func addressesHeldAreBounded() {
        let limiter = SignInLimiter(policy: .init(maxFailures: 1, maxAddresses: 100))
        // Times given, so which address is oldest is exact.
        let start = ContinuousClock.now
        func at(_ step: Int) -> ContinuousClock.Instant { start + .milliseconds(step) }
        func isLimited(_ verdict: SignInLimiter.Verdict) -> Bool {
            if case .limited = verdict { return true }
            return false
        }
        let locked = "192.0.2.1"
        #expect(limiter.recordFailure(from: locked, at: at(0)) == .counted)
        #expect(isLimited(limiter.recordFailure(from: locked, at: at(1))))
        for n in 0..<99 { #expect(limiter.recordFailure(from: "10.0.0.\(n)", at: at(2 + n)) == .counted) }
        // 100 addresses held, the table is full: the first is still locked.
        #expect(isLimited(limiter.recordFailure(from: locked, at: at(200))))
        // One more address needs room: the oldest half goes, the locked address with it.
        #expect(limiter.recordFailure(from: "10.0.1.0", at: at(201)) == .counted)
        #expect(limiter.recordFailure(from: locked, at: at(202)) == .counted)
        // The newest are still held: a second failure locks them.
        #expect(isLimited(limiter.recordFailure(from: "10.0.1.0", at: at(203))))
        #expect(limiter.failures == 105)
    }
}
