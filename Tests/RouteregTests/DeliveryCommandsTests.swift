import Foundation
import RegistryService
import RegistryTesting
import Testing

/// `routereg aasa status` and `routereg release status` through the built binary, against a server whose
/// delivery watch observes a local stand-in for Apple's CDN: they follow what the CDN serves, step by step.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct DeliveryCommandsTests {
    static let host = "m.badoo.com"

    @Test func statusCommandsFollowTheCDN() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        let server = try TestRegistryServer(
            suite: "routereg_delivery",
            delivery: DeliveryWatch.Options(
                appleCDN: standIn.baseURL, assetLinksAPI: standIn.baseURL, interval: .milliseconds(300),
                pendingInterval: .milliseconds(300), jitter: 0, fetchTimeout: .milliseconds(700),
                errorBackoff: .milliseconds(100), refreshInterval: .milliseconds(100),
                lockInterval: .milliseconds(200), tick: .milliseconds(50)))
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", Self.host, "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        try await session.ok(["route", "add", "badoo", "lookalikes", "/l/a/*", "--since", "ios=5.12.0"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.11.0"])
        let first = try #require(server.service.snapshot.document(host: Self.host, kind: .aasa)).revision
        let old = try revision(server, first)

        // Not observed yet: the CDN holds nothing for the host.
        func waitForStatus(_ contains: String) async throws -> String {
            var text = ""
            let seen = try await eventually(within: .seconds(15)) {
                text = try await session.ok(["aasa", "status", Self.host])
                return text.contains(contains)
            }
            #expect(seen, "aasa status never said \(contains):\n\(text)")
            return text
        }
        var status = try await waitForStatus("none (404)")
        #expect(status.contains("not_found"), "\(status)")

        // 5.11.0's revision at the CDN: current, and 5.11.0's routes are delivered.
        standIn.setAASA(Self.host, .serve(old))
        status = try await waitForStatus("revision \(first)")
        #expect(status.contains("current"), "\(status)")
        let delivered = try await session.run(["release", "status", "badoo", "ios", "5.11.0"])
        #expect(delivered.status == 0, "\(delivered.stdout)\(delivered.stderr)")
        #expect(delivered.stdout.contains("\(Self.host): delivered"), "\(delivered.stdout)")

        // 5.12.0 published: the CDN still serves revision 1, so lookalikes is pending there.
        try await session.ok(["release", "publish", "badoo", "ios", "5.12.0"])
        status = try await waitForStatus("1 revision")
        #expect(status.contains("revision \(first)"), "\(status)")
        let pending = try await session.run(["release", "status", "badoo", "ios", "5.12.0"])
        #expect(pending.status == 1)
        #expect(pending.stdout.contains("pending at Apple's CDN: lookalikes"), "\(pending.stdout)")
        #expect(!pending.stdout.contains("profile"), "\(pending.stdout)")

        // The CDN catches up.
        standIn.setAASA(Self.host, .serve(try revision(server, first + 1)))
        status = try await waitForStatus("revision \(first + 1)")
        #expect(status.contains("current"), "\(status)")
        let caughtUp = try await session.run(["release", "status", "badoo", "ios", "5.12.0"])
        #expect(caughtUp.status == 0, "\(caughtUp.stdout)\(caughtUp.stderr)")

        // A hand-written file.
        standIn.setAASA(Self.host, .serve(Data(#"{"applinks":{"details":[]}}"#.utf8)))
        status = try await waitForStatus("not a revision we published")
        // It claims nothing of ours: every route 5.12.0 opens is pending there, none "not published".
        let handWritten = try await session.run(["release", "status", "badoo", "ios", "5.12.0"])
        #expect(handWritten.status == 1)
        #expect(handWritten.stdout.contains("pending at Apple's CDN: profile, lookalikes"), "\(handWritten.stdout)")
        #expect(!handWritten.stdout.contains("not in the published revision"), "\(handWritten.stdout)")
        let json = try await session.ok(["--json", "aasa", "status", Self.host])
        #expect(json.contains("\"revisionsBehind\":-1") || json.contains("\"revisionsBehind\": -1"), "\(json)")
    }

    func revision(_ server: TestRegistryServer, _ number: Int) throws -> Data {
        try #require(
            try server.service.store.read { tx in
                try server.service.store.revisions.get(host: Self.host, kind: .aasa, number: number, in: tx)
            }
        ).bytes
    }

    func eventually(within timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
