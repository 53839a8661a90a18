import Foundation
import RegistryService
import Testing

@testable import HTTPServing
@testable import RegistryAPI

/// `routereg_link_misses_total{outcome}`: one sample per outcome, counting every miss, whatever the domain or
/// code: no label a visitor's text could reach.
@Suite struct LinkMissMetricsTests {
    @Test func missesAreOneSamplePerOutcome() {
        let metrics = ServerMetrics()
        let clicks = ClickCounter()
        RegistryServer.registerLinkCounters(metrics, clicks: clicks)
        for _ in 0..<3 { clicks.countMiss(domain: "go.badoo.com", .unknown) }
        clicks.countMiss(domain: "go.other.com", .unknown)
        clicks.countMiss(domain: "go.badoo.com", .refused)
        let lines = metrics.render().split(separator: "\n").filter { $0.hasPrefix("routereg_link_misses_total") }
        #expect(
            lines.sorted() == [
                #"routereg_link_misses_total{outcome="deleted"} 0.0"#,
                #"routereg_link_misses_total{outcome="disabled"} 0.0"#,
                #"routereg_link_misses_total{outcome="expired"} 0.0"#,
                #"routereg_link_misses_total{outcome="refused"} 1.0"#,
                #"routereg_link_misses_total{outcome="unknown"} 4.0"#,
            ])
        #expect(!metrics.render().contains("go.badoo.com"))
    }
}
