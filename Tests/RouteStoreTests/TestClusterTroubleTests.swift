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
            """
        let lines = TestCluster.troubleLines(in: log)
        #expect(lines.count == 3)
        #expect(!lines.contains { $0.contains("duplicate key") || $0.contains("ready to accept") })
    }
}
