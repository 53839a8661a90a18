import Dispatch
import Foundation
import JSONRPC
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where a call whose cost grows with its params runs: a long one on the low-priority lane (one thread at
/// `SCHED_IDLE` and nice 19, a bounded queue), a short one, or one of another method, where it always did.
@Suite("Low-priority lane")
struct LowPriorityLaneTests {
    struct Input: Decodable, Sendable { var url: String }
    struct Output: Encodable {
        var nice: Int32
        var policy: Int32

        init(nice: Int32) {
            self.nice = nice
            self.policy = LowPriorityLaneTests.policy()
        }
    }

    /// The calling thread's scheduling policy (`SCHED_OTHER` 0, `SCHED_IDLE` 5).
    static func policy() -> Int32 {
        #if os(Linux)
            return sched_getscheduler(0)
        #else
            return 0
        #endif
    }

    /// The calling thread's nice value.
    static func nice() -> Int32 {
        #if os(Linux)
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
            return 0
        #endif
    }

    /// `Costly.Check` (cost grows with its params) and `Plain.Check` (does not) answer the nice value they ran
    /// at; `Costly.Wait` (cost grows too) first waits for `gate`, and counts its runs.
    static func dispatcher(
        lane: LowPriorityLane, gate: DispatchSemaphore = DispatchSemaphore(value: 0), runs: Counter? = nil
    )
        -> JSONRPCDispatcher
    {
        let runs = runs
        return JSONRPCDispatcher(
            methods: [
                RPCMethod(name: "Costly.Check", access: .public) { (_, _: Input) in Output(nice: nice()) }
                    .growingWithParams(),
                RPCMethod(name: "Plain.Check", access: .public) { (_, _: Input) in Output(nice: nice()) },
                RPCMethod(name: "Costly.Wait", access: .public) { (_, _: Input) in
                    runs?.add()
                    gate.wait()
                    return Output(nice: nice())
                }.growingWithParams(),
            ], lowPriority: lane)
    }

    static func body(_ method: String, urlLength: Int, id: Int = 1) -> [UInt8] {
        let url = "https://m.example.com/" + String(repeating: "a", count: urlLength)
        return Array(#"{"jsonrpc":"2.0","method":"\#(method)","params":{"url":"\#(url)"},"id":\#(id)}"#.utf8)
    }

    static func object(_ reply: RPCReply?) throws -> [String: Any] {
        guard case .json(let bytes)? = reply else { throw ReplyError.notJSON }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    enum ReplyError: Error { case notJSON }

    static func code(_ reply: RPCReply?) throws -> Int? {
        try (object(reply)["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func aLongCostlyCallRunsUnderSchedIdleAndAShortOneWhereItArrived() throws {
        let dispatcher = Self.dispatcher(lane: LowPriorityLane())
        let transport = RPCTransport(requestID: "r")
        let here = Self.nice()
        let long = try Self.object(dispatcher.handle(Self.body("Costly.Check", urlLength: 4000), transport: transport))
        let short = try Self.object(dispatcher.handle(Self.body("Costly.Check", urlLength: 40), transport: transport))
        let plain = try Self.object(dispatcher.handle(Self.body("Plain.Check", urlLength: 4000), transport: transport))
        #if os(Linux)
            #expect((long["result"] as? [String: Any])?["nice"] as? Int == 19)
            #expect((long["result"] as? [String: Any])?["policy"] as? Int == Int(LowPriorityLane.schedIdle))
        #endif
        #expect((short["result"] as? [String: Any])?["nice"] as? Int == Int(here))
        #expect((plain["result"] as? [String: Any])?["nice"] as? Int == Int(here))
        #expect((plain["result"] as? [String: Any])?["policy"] as? Int == Int(Self.policy()))
    }

    @Test func aFullLaneAnswersResourceExhaustedWithTheIDAndRunsNothing() throws {
        let gate = DispatchSemaphore(value: 0)
        let runs = Counter()
        let lane = LowPriorityLane(capacity: 1)
        let dispatcher = Self.dispatcher(lane: lane, gate: gate, runs: runs)
        let replies = Mutex<[Int: RPCReply]>([:])
        func send(_ id: Int) -> JSONRPCDispatcher.Dispatched {
            dispatcher.dispatch(
                body: Self.body("Costly.Wait", urlLength: 4000, id: id), transport: RPCTransport(requestID: "r\(id)")
            ) {
                { reply in replies.withLock { $0[id] = reply } }
            }
        }
        // The first runs (and waits at the gate), the second waits in the queue, the third finds it full.
        _ = send(1)
        try Self.waitUntil { runs.count == 1 }
        _ = send(2)
        let third = send(3)
        guard case .reply(let refusal) = third.outcome else {
            Issue.record("the third call was queued past the lane's capacity")
            gate.signal()
            gate.signal()
            return
        }
        let error = try #require(try Self.object(refusal)["error"] as? [String: Any])
        #expect(error["code"] as? Int == 8)
        #expect((error["data"] as? [String: Any])?["status"] as? String == "RESOURCE_EXHAUSTED")
        #expect(try Self.object(refusal)["id"] as? Int == 3)
        gate.signal()
        gate.signal()
        try Self.waitUntil { replies.withLock { $0.count } == 2 }
        #expect(runs.count == 2)
        #expect(try Self.code(replies.withLock { $0[1] }) == nil)
        #expect(try Self.code(replies.withLock { $0[2] }) == nil)
    }

    @Test func aCallWhoseDeadlinePassedInTheQueueIsAnsweredDeadlineExceededWithoutRunning() throws {
        let gate = DispatchSemaphore(value: 0)
        let runs = Counter()
        let dispatcher = Self.dispatcher(lane: LowPriorityLane(), gate: gate, runs: runs)
        let replies = Mutex<[Int: RPCReply]>([:])
        _ = dispatcher.dispatch(
            body: Self.body("Costly.Wait", urlLength: 4000, id: 1), transport: RPCTransport(requestID: "a")
        ) {
            { reply in replies.withLock { $0[1] = reply } }
        }
        try Self.waitUntil { runs.count == 1 }
        let soon = RPCTransport(requestID: "b", deadline: .success(ContinuousClock.now + .milliseconds(50)))
        _ = dispatcher.dispatch(body: Self.body("Costly.Wait", urlLength: 4000, id: 2), transport: soon) {
            { reply in replies.withLock { $0[2] = reply } }
        }
        Thread.sleep(forTimeInterval: 0.2)
        gate.signal()
        try Self.waitUntil { replies.withLock { $0.count } == 2 }
        #expect(try Self.code(replies.withLock { $0[2] }) == 4)
        #expect(runs.count == 1)
    }

    @Test func theLaneRunsInOrderAndStartsAgainAfterItsThreadEnded() throws {
        let lane = LowPriorityLane(capacity: 8, idle: .milliseconds(50))
        let order = Mutex<[Int]>([])
        for index in 0..<5 { #expect(lane.submit { order.withLock { $0.append(index) } }) }
        try Self.waitUntil { order.withLock { $0.count } == 5 }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        Thread.sleep(forTimeInterval: 0.3)  // the thread has ended
        #expect(lane.submit { order.withLock { $0.append(5) } })
        try Self.waitUntil { order.withLock { $0.count } == 6 }
        #expect(lane.waiting == 0)
    }

    /// Waits up to 10 s for `condition`.
    static func waitUntil(_ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WaitError.timedOut }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    enum WaitError: Error { case timedOut }

    /// How many times a handler ran, shared with it.
    final class Counter: Sendable {
        private let value = Atomic(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }
}
