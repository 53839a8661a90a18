import Foundation
import RegistryService
import RegistryTesting
import RouteStore
import Testing

/// The primary hangs (SIGSTOP of the postmaster and every backend: the kernel still accepts connections and
/// acknowledges packets, nothing answers). Snapshot reads and `/readyz` stay fast, a write fails within its
/// deadline and never commits later, and once the standby is promoted writes resume within seconds.
///
/// The hang lasts 15 s, as in an operator's drill, with the standby promoted after 12 s: every wait in the
/// server is bounded by 2–3 s (the write's deadline, the monitor's probe, the listener's heartbeat, the
/// connect's own bound), so each of them expires several times while reads are probed.
@Suite(.serialized) struct HungPrimaryTests {
    @Test func readsStayFastAndAnAbandonedWriteNeverCommits() async throws {
        let fleet = try HAFleet(servers: 1)
        defer { fleet.tearDown() }
        let server = fleet.servers[0]
        try await seedBadoo(server)
        try fleet.postgres.waitForStandbyToCatchUp()
        let primaryURL = fleet.postgres.primaryURL(HAFleet.database)

        try fleet.postgres.signalPrimary(SIGSTOP)
        var resumed = false
        defer { if !resumed { try? fleet.postgres.signalPrimary(SIGCONT) } }
        let port = server.server.port
        let write = """
            {"jsonrpc":"2.0","id":1,"method":"Routes.Create","params":{"app":"badoo","route":{"id":"hung",\
            "pattern":{"path":"/hung/*"},"platforms":{"ios":{"since":"5.0"}}}}}
            """
        let attempted = ThreadCall {
            ProbeClient.request(
                port: port, "POST", "/rpc", body: write,
                headers: ["Authorization": "Bearer \(TestRegistryServer.adminToken)", "X-Request-Timeout-Ms": "2000"])
        }
        let probed = ThreadCall { Self.probe(port: port, for: .seconds(15)) }
        try await Task.sleep(for: .seconds(12))
        try fleet.postgres.promoteStandby()
        let promotedAt = ContinuousClock.now
        // Writes resume on the promoted standby while the old primary is still hung (and reads go on).
        let resumedWrite = try await firstSuccess(within: .seconds(20)) {
            try await deadlineWrite(
                server, "Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        }
        let answer = await attempted.value
        let stats = await probed.value
        let status = answer.body.range(of: #""code":"#).flatMap {
            Int(answer.body[$0.upperBound...].prefix { $0 != "," })
        }
        print(
            String(
                format:
                    "hung primary: %d snapshot reads, p99 %.1f ms, slowest %.1f ms; %d /readyz, slowest %.1f ms;"
                    + " write answered in %.2f s (code %d)",
                stats.reads, stats.percentile(0.99) * 1000, stats.slowestRead * 1000, stats.readies,
                stats.slowestReady * 1000, answer.seconds, status ?? 0))
        #expect(stats.failures.isEmpty, "\(stats.failures.prefix(5))")
        #expect(stats.reads > 20)
        // Reads answer from memory: 99% within 100 ms and every one within 1 s, against the 2 s a read would wait
        // on the database's deadline (and the whole hang without one). Not every read under 100 ms: on the
        // shared 2-core machine, scheduling alone once took a read to 99.8 ms while other suites ran.
        #expect(stats.percentile(0.99) < 0.1, "\(stats.latencies.sorted().suffix(5))")
        #expect(stats.slowestRead < 1)
        #expect(stats.slowestReady < 1)
        #expect(status == 4 || status == 14, "the write during the hang must fail: \(answer.body)")
        // Its deadline plus 100 ms (before: 4.15 s, libpq's connect_timeout on the hung host, then the next).
        #expect(answer.seconds < 2.1, "the write must be answered within its 2 s deadline plus 100 ms")

        print(
            String(
                format: "hung primary: first successful write on the promoted standby %.2f s after promote",
                resumedWrite.seconds))
        // The hosts are raced and the monitor's probe of the hung host holds no lock, so the first write after
        // the promotion waits on neither: 0.30 s on a quiet machine, 1.1–3.2 s with every suite running beside
        // it (before: 1.45–13.55 s). Printed above; the bound only catches a write waiting out a hung host.
        #expect(resumedWrite.seconds < 10, "first write \(resumedWrite.seconds) s after the promotion")
        _ = promotedAt

        // The old primary wakes up: the abandoned write was never committed there, and is not now.
        try fleet.postgres.signalPrimary(SIGCONT)
        resumed = true
        _ = resumedWrite
        try await Task.sleep(for: .seconds(1))
        let onOldPrimary = try HAFleet.store(primaryURL).read { tx in
            try tx.query("SELECT count(*) AS n FROM routes WHERE id = 'hung'")[0].int("n")
        }
        let onNewPrimary = try HAFleet.store(fleet.postgres.standbyURL(HAFleet.database)).read { tx in
            try tx.query("SELECT count(*) AS n FROM routes WHERE id = 'hung'")[0].int("n")
        }
        #expect(onOldPrimary == 0 && onNewPrimary == 0, "the write abandoned at its deadline committed later")
        #expect(fleet.lines.all.contains { $0.contains("database unreachable") }, "\(fleet.lines.all)")
    }

    struct ProbeStats: Sendable {
        var reads = 0
        var readies = 0
        var slowestRead = 0.0
        var slowestReady = 0.0
        var failures: [String] = []
        /// Every snapshot read's latency in seconds.
        var latencies: [Double] = []

        func percentile(_ fraction: Double) -> Double {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return .infinity }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// Snapshot reads (the AASA, CanOpen.Check) and `/readyz` in a loop for `duration`, timed one by one.
    static func probe(port: UInt16, for duration: Duration) -> ProbeStats {
        var stats = ProbeStats()
        let check = """
            {"jsonrpc":"2.0","id":1,"method":"CanOpen.Check","params":{"app":"badoo","platform":"ios",\
            "version":"5.11.0","url":"https://m.badoo.com/u/1"}}
            """
        let start = ContinuousClock.now
        while start.duration(to: .now) < duration {
            let aasa = ProbeClient.request(
                port: port, "GET", "/.well-known/apple-app-site-association", host: "m.badoo.com")
            let decision = ProbeClient.request(port: port, "POST", "/rpc", body: check)
            let ready = ProbeClient.request(port: port, "GET", "/readyz")
            stats.reads += 2
            stats.readies += 1
            stats.slowestRead = max(stats.slowestRead, aasa.seconds, decision.seconds)
            stats.latencies += [aasa.seconds, decision.seconds]
            stats.slowestReady = max(stats.slowestReady, ready.seconds)
            if aasa.status != 200 || !aasa.body.contains("/u/*") { stats.failures.append("AASA \(aasa.status)") }
            if !decision.body.contains("open_in_app") { stats.failures.append("Check: \(decision.body)") }
            if ready.status != 200 { stats.failures.append("readyz \(ready.status)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return stats
    }
}
