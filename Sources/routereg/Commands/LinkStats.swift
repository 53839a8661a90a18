import Foundation
import RouteCore

/// `routereg link stats DOMAIN CODE [--csv]`: a link's clicks by day, platform, outcome and source, people and
/// bots apart; `--csv` for a spreadsheet, `--json` (global) for the API's answer as it is.
enum LinkStats {
    static let spec = CommandSpec(
        ["link", "stats"], summary: "clicks of a short link per day, platform, outcome and source",
        details: """
            A click's visitor is a bot when it was a link-preview fetcher, a search engine or a monitor (the
            crawler platform), a person otherwise; source is link (the short URL) or qr (a scan of its QR code).
            --csv prints day,platform,outcome,source,visitor,clicks with a header line (RFC 4180).
            """,
        positionals: LinkCommands.codeArguments,
        flags: [.bool("csv", "print CSV: day,platform,outcome,source,visitor,clicks")],
        examples: ["link stats go.badoo.com summer", "link stats go.badoo.com summer --csv > summer.csv"],
        action: .run(run))

    static func run(_ run: Invocation) throws {
        let (stats, raw) = try run.call(API.LinksStats.self, .init(domain: run.argument(0), code: run.argument(1)))
        if run.json { return run.printJSON(raw) }
        if run.arguments.bool("csv") { return run.console.write(csv(stats.counts)) }
        if stats.counts.isEmpty {
            run.print("No clicks on \(stats.name) yet.")
        } else {
            let rows = stats.counts.map {
                [$0.day, $0.platform, $0.outcome, $0.source ?? "link", $0.visitor ?? "", String($0.count)]
            }
            run.print(TextTable.render(rows, header: ["day", "platform", "outcome", "source", "visitor", "clicks"]))
            run.print(
                "\(stats.total) click(s) in all: \(stats.people ?? stats.total) by people, \(stats.bots ?? 0) by bots")
        }
        // What visitors of the domain typed that matched no link: a count by why, never the codes.
        let misses = stats.domainMisses ?? []
        guard !misses.isEmpty else { return }
        var byOutcome: [String: Int] = [:]
        for miss in misses { byOutcome[miss.outcome, default: 0] += miss.count }
        let parts = byOutcome.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        run.print(
            "\(misses.reduce(0) { $0 + $1.count }) visit(s) to \(run.argument(0).lowercased()) found no link in the last "
                + "\(API.LinksStats.missDays) days (\(parts.joined(separator: ", ")))")
    }

    /// RFC 4180: CRLF line ends, a header; no field here needs quoting (days, names from fixed lists, numbers).
    static func csv(_ counts: [API.LinksStats.Count]) -> String {
        var lines = ["day,platform,outcome,source,visitor,clicks"]
        for count in counts {
            lines.append(
                [
                    count.day, count.platform, count.outcome, count.source ?? "link", count.visitor ?? "",
                    String(count.count),
                ]
                .joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
