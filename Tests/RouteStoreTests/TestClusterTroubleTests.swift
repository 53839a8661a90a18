import RegistryTesting
import Testing

/// The shared test cluster's log is deleted at exit; the lines saying the server crashed or refused
/// connections are printed first, and only those.
@Suite struct TestClusterTroubleTests {
    @Test func onlyTheServersOwnTroubleIsReported() {
        let log = """
            2026-12-01 19:40:01 UTC LOG:  database system is ready to accept connections
            2026-12-01 19:40:07 UTC FATAL:  sorry, too many clients already
            2026-12-01 19:40:08 UTC LOG:  server process (PID 4242) was terminated by signal 9: Killed
            2026-12-01 19:40:08 UTC LOG:  terminating any other active server processes
            2026-12-01 19:40:09 UTC ERROR:  duplicate key value violates unique constraint "apps_pkey"
            2026-12-01 19:40:10 UTC LOG:  process 77 still waiting for ShareLock on transaction 9 after 1000.1 ms
            2026-12-01 19:40:11 UTC LOG:  checkpoint complete: wrote 3 buffers (0.0%); write=0.001 s, sync=0.000 s, total=0.004 s
            2026-12-01 19:40:12 UTC LOG:  checkpoint complete: wrote 90000 buffers (55.0%); write=9.5 s, sync=0.000 s, total=9.612 s
            2026-12-01 19:40:13 UTC LOG:  duration: 2417.360 ms  statement: DROP DATABASE IF EXISTS t_x WITH (FORCE)
            """
        let lines = TestCluster.troubleLines(in: log)
        #expect(lines.count == 6)
        #expect(lines.last?.contains("DROP DATABASE") == true)
        #expect(!lines.contains { $0.contains("total=0.004") })
        #expect(!lines.contains { $0.contains("duplicate key") || $0.contains("ready to accept") })
    }
}
