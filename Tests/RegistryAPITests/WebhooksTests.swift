import Foundation
import HTTPServing
import RegistryTesting
import RouteCore
import Synchronization
import Testing

/// Webhooks against a real server and a stand-in receiver on loopback (allowed as a private host): link events
/// and clicks arrive signed and in order, a receiver answering 500 gets the same events again until it takes
/// them, and a receiver that hangs never holds up a click (issue 45).
@Suite(.serialized) struct WebhooksTests {
    typealias Serving = LinksServingTests

    /// A receiver that records each POST and answers as `answer` says (by the request's number, from 0).
    final class Receiver: Sendable {
        struct Received: Sendable {
            var signature: String
            var body: [UInt8]
        }

        /// The POSTs, behind a lock (a class, so the route's closure can hold it).
        final class Log: Sendable {
            let list = Mutex<[Received]>([])
            func withLock<T>(_ body: (inout [Received]) -> T) -> T { list.withLock { body(&$0) } }
        }

        let server: HTTPServer
        let received = Log()

        init(answer: @escaping @Sendable (Int) -> Int) throws {
            let received = self.received
            var router = Router()
            router.post("/hook", label: "hook") { request in
                let number = received.withLock { list in
                    list.append(
                        Received(signature: request.header(WebhookSignature.header) ?? "", body: request.body))
                    return list.count - 1
                }
                return .respond(.text(answer(number), "ok\n"))
            }
            server = HTTPServer(
                configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router, log: .silent)
            try server.start()
        }

        var url: String { "http://127.0.0.1:\(server.port)/hook" }

        /// The events of each POST received so far: (id, type).
        func batches() throws -> [[(id: Int, type: String)]] {
            try received.withLock { $0 }.map { post in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(post.body)) as? [String: Any])
                return (object["events"] as? [[String: Any]] ?? []).map {
                    ($0["id"] as? Int ?? -1, $0["type"] as? String ?? "")
                }
            }
        }

        /// Waits (polling, up to `seconds`) until `condition` holds.
        func waitFor(_ seconds: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if try condition() { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return try condition()
        }
    }

    static func start(_ receiver: Receiver, suite: String) async throws -> (TestRegistryServer, secret: String) {
        let server = try TestRegistryServer(
            suite: suite, runtime: .init(clickFlushInterval: .milliseconds(200)),
            webhookPrivateHosts: ["127.0.0.1"])
        try await Serving.seed(server)
        let created = try await server.result(
            "Webhooks.Create", ["app": "badoo", "webhook": ["url": receiver.url, "description": "test"]])
        let secret = try #require(created["secret"] as? String)
        #expect(secret.hasPrefix("whsec_") && (created["events"] as? [String])?.count == 4)
        // Shown once: the list never shows it again.
        let listed = try await server.result("Webhooks.List", ["app": "badoo"])
        #expect((listed["webhooks"] as? [[String: Any]])?.first?["secret"] == nil)
        return (server, secret)
    }

    @Test func eventsArriveSignedInOrderAndAreRetriedUntilTaken() async throws {
        // The first two POSTs fail: the same events come again, in the same order.
        let receiver = try Receiver { $0 < 2 ? 500 : 200 }
        defer { receiver.server.stop() }
        let (server, secret) = try await Self.start(receiver, suite: "webhooks_events")
        defer { server.shutdown() }
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/l/a/42"]])
        for _ in 0..<3 { #expect(try Serving.visit(server, "/summer", agent: Serving.firefox).status == 302) }

        let arrived = try receiver.waitFor {
            try receiver.batches().flatMap { $0 }.contains { $0.type == "link.clicked" }
                && receiver.received.withLock { $0.count } >= 3
        }
        let batches = try receiver.batches()
        #expect(arrived, "\(batches)")
        // The failed batches were sent again from their first event.
        #expect(batches[0].first?.id == batches[1].first?.id && batches[1].first?.id == batches[2].first?.id)
        #expect(batches[2].first?.type == "link.created")
        let delivered = batches.dropFirst(2).flatMap { $0 }
        #expect(delivered.map(\.id) == delivered.map(\.id).sorted(), "in order")
        #expect(Set(delivered.map(\.id)).count == delivered.count, "each event once after it was taken")
        // Every POST is signed with the secret over its raw body, at the time it was sent.
        for post in receiver.received.withLock({ $0 }) {
            #expect(
                WebhookSignature.verify(
                    header: post.signature, secret: secret, body: post.body, now: Int(Date().timeIntervalSince1970)))
        }
        // The click event says what was counted.
        let posts = receiver.received.withLock { $0 }
        let clickEvents = posts.compactMap { post -> [String: Any]? in
            let object = try? JSONSerialization.jsonObject(with: Data(post.body)) as? [String: Any]
            let events = object?["events"] as? [[String: Any]] ?? []
            return events.first { $0["type"] as? String == "link.clicked" }
        }
        let clicked = try #require(clickEvents.first)
        let data = try #require(clicked["data"] as? [String: Any])
        #expect(data["code"] as? String == "summer")
        let clicks = data["clicks"] as? [[String: Any]] ?? []
        #expect(clicks.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } >= 1)

        // The log says what happened, newest first; the webhook is healthy again.
        let listed = try await server.result("Webhooks.List", ["app": "badoo"])
        let webhook = try #require((listed["webhooks"] as? [[String: Any]])?.first)
        #expect(webhook["failures"] as? Int == 0)
        let log = try await server.result(
            "Webhooks.Deliveries", ["app": "badoo", "id": webhook["id"] as? String ?? ""])
        let statuses = (log["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
        #expect(Array(statuses.suffix(2)) == [500, 500] && statuses.contains(200), "\(statuses)")
    }

    @Test func aBatchOfLinksGivesOneEventPerLinkInItsOrder() async throws {
        let receiver = try Receiver { _ in 200 }
        defer { receiver.server.stop() }
        let (server, _) = try await Self.start(receiver, suite: "webhooks_batch")
        defer { server.shutdown() }
        // Codes out of alphabetical order, so an order by code could not pass for the batch's order.
        let codes = (0..<40).map { "b\(($0 * 17) % 40)" }
        _ = try await server.result(
            "Links.BatchCreate",
            ["app": "badoo", "links": codes.map { ["code": $0, "target": "https://m.badoo.com/l/a/\($0)"] }])
        func created() -> [String] {
            receiver.received.withLock { $0 }.flatMap { post -> [String] in
                let object = try? JSONSerialization.jsonObject(with: Data(post.body)) as? [String: Any]
                return (object?["events"] as? [[String: Any]] ?? []).compactMap { event in
                    guard event["type"] as? String == "link.created" else { return nil }
                    return (event["data"] as? [String: Any])?["code"] as? String
                }
            }
        }
        #expect(try receiver.waitFor { created().count >= codes.count })
        #expect(created() == codes)
    }

    @Test func aHungReceiverNeverHoldsUpAClick() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let receiver = try Receiver { number in
            if number == 0 {
                entered.signal()
                _ = release.wait(timeout: .now() + 30)
            }
            return 200
        }
        defer { receiver.server.stop() }
        let (server, _) = try await Self.start(receiver, suite: "webhooks_hung")
        defer { server.shutdown() }
        _ = try await server.result(
            "Links.Create", ["app": "badoo", "link": ["code": "summer", "target": "https://m.badoo.com/l/a/42"]])
        #expect(entered.wait(timeout: .now() + 60) == .success, "the first delivery never came")
        // The delivery is in flight and held: every click is still answered, before it is let go.
        for _ in 0..<20 { #expect(try Serving.visit(server, "/summer", agent: Serving.firefox).status == 302) }
        #expect(try Serving.visit(server, "/summer", agent: Serving.safari).status == 200)
        release.signal()
        // Let go, the held batch is taken, and the clicks counted meanwhile follow in the next one.
        #expect(try receiver.waitFor { receiver.received.withLock { $0.count } >= 2 })
    }

    @Test func receiversAndEventsAreChecked() async throws {
        let server = try TestRegistryServer(suite: "webhooks_checks")
        defer { server.shutdown() }
        try await Serving.seed(server)
        for (url, events) in [
            ("http://127.0.0.1:9/hook", WebhookEventType.all), ("https://10.1.2.3/hook", WebhookEventType.all),
            ("https://hooks.example.com/x", ["link.exploded"]),
        ] {
            let refused = try await server.call(
                "Webhooks.Create", ["app": "badoo", "webhook": ["url": url, "events": events]])
            let data = (refused["error"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["status"] as? String == "INVALID_ARGUMENT", "\(url): \(refused)")
        }
        let listed = try await server.result("Webhooks.List", ["app": "badoo"])
        #expect((listed["webhooks"] as? [[String: Any]])?.isEmpty == true)
        let missing = try await server.call("Webhooks.Delete", ["app": "badoo", "id": "wh_0000000000000000"])
        #expect(((missing["error"] as? [String: Any])?["data"] as? [String: Any])?["status"] as? String == "NOT_FOUND")
    }
}
