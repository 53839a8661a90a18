import Foundation
import RouteCore

/// How routes read for people: patterns in AASA-like syntax, version ranges, kill switches.
enum RouteText {
    /// `/l/a/*?ref=*#top`, with `badoo://` in front for a custom-scheme route and options after.
    static func pattern(_ pattern: URLPattern) -> String { pattern.displayText }

    /// A document ETag for people: a SHA-256 is cut to its first 12 hex digits (`--json` has it whole).
    static func shortETag(_ etag: String) -> String {
        let bare = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard bare.count > 16 else { return etag }
        return String(bare.prefix(12)) + "…"
    }

    /// `5.12.0+` (open-ended) or `5.0–6.0` (until is exclusive).
    static func range(_ range: VersionRange?) -> String { range?.displayText ?? "" }

    /// `ios 5.12.0 (crash), android 51200`.
    static func switchedOff(_ route: Route) -> String {
        Platform.allCases.compactMap { platform -> String? in
            guard let entries = route.switchedOff[platform], !entries.isEmpty else { return nil }
            let versions = entries.map { entry in entry.reason.map { "\(entry.version) (\($0))" } ?? "\(entry.version)"
            }
            return "\(platform.rawValue) " + versions.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// The table of an app's routes in evaluation order.
    static func table(_ routes: [RouteResource], style: Style) -> String {
        let rows = routes.map { resource in
            let route = resource.route
            return [
                String(resource.position + 1), route.id, route.action.rawValue, pattern(route.pattern),
                route.action == .exclude ? "" : range(route.platforms[.ios]),
                route.action == .exclude ? "" : range(route.platforms[.android]), switchedOff(route),
                route.domains.isEmpty ? "all" : route.domains.joined(separator: ", "),
            ]
        }
        return TextTable.render(
            rows, header: ["#", "route", "action", "pattern", "ios", "android", "switched off", "domains"]
        ) { row, column, cell in
            guard row >= 0 else { return style.bold(cell) }
            if column == 2 && routes[row].route.action == .exclude { return style.yellow(cell) }
            if column == 6 { return style.red(cell) }
            return cell
        }
    }

    /// One route as aligned `field  value` lines.
    static func detail(_ resource: RouteResource, ago: (String?) -> String) -> String {
        let route = resource.route
        var rows: [[String]] = [
            ["name", resource.meta.name], ["position", "\(resource.position + 1)"],
            ["action", route.action.rawValue], ["pattern", pattern(route.pattern)],
        ]
        for platform in Platform.allCases {
            if let range = route.platforms[platform] { rows.append([platform.rawValue, self.range(range)]) }
        }
        let off = switchedOff(route)
        if !off.isEmpty { rows.append(["switched off", off]) }
        rows.append(["domains", route.domains.isEmpty ? "all of the app's" : route.domains.joined(separator: ", ")])
        if let fallback = route.webFallback { rows.append(["web fallback", fallback]) }
        if let comment = route.comment { rows.append(["comment", comment]) }
        rows.append(["created", ago(resource.meta.createTime)])
        if let updated = resource.meta.updateTime { rows.append(["updated", ago(updated)]) }
        rows.append(["etag", resource.meta.etag])
        return TextTable.render(rows)
    }
}
