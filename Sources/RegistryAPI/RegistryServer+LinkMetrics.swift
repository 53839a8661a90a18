import HTTPServing
import RegistryService

extension RegistryServer {
    /// Visits to a link domain that found no link, by why (`unknown`, `expired`, `deleted`, `refused`). One
    /// sample per outcome, whatever the visitors typed: no code or domain label.
    static func registerLinkCounters(_ metrics: ServerMetrics, clicks: ClickCounter) {
        metrics.registerCounter(
            "routereg_link_misses_total",
            help: "Link domain visits that found no link (unknown, expired or deleted code; long link refused)"
        ) {
            clicks.missTotalsByOutcome.map {
                ServerMetrics.Sample(labels: [("outcome", $0.outcome)], value: Double($0.count))
            }
        }
    }
}
