import Foundation
import RouteCore

/// `routereg can-open`, `routereg canopen-table` and `routereg matrix`: what versions do with links.
enum CanOpenCommands {
    static let key = ReleaseCommands.key

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["can-open"], summary: "what a version does with URLs (open in app, or which fallback)",
            details: "With --json: the CanOpen.Check result for one URL, a JSON array of them for several.",
            positionals: key + [PositionalSpec(name: "URL", summary: "links to decide", variadic: true)],
            examples: ["can-open badoo ios 5.11.0 https://m.badoo.com/l/a/42"], action: .run(canOpen)),
        CommandSpec(
            ["canopen-table"], summary: "print a version's canOpen table JSON, to bundle into the app",
            details:
                "The output is the CanOpen.GetTable result ({\"etag\", \"table\", ...}), the format the Swift client reads.",
            positionals: key, flags: [.value("output", "FILE", "write it to FILE instead of stdout")],
            examples: ["canopen-table badoo ios 5.12.0 --output Resources/CanOpenTable.json"], action: .run(table)),
        CommandSpec(
            ["matrix"], summary: "routes × live versions: ✓ open, ✗ fallback, ⊘ switched off",
            positionals: [key[0], key[1]], examples: ["matrix badoo ios"], action: .run(matrix)),
    ]

    static func canOpen(_ run: Invocation) throws {
        let release = try ReleaseCommands.releaseKey(run)
        var results: [(url: String, decision: Decision, raw: Data)] = []
        for url in run.arguments.positionals.dropFirst(3) {
            let (decision, raw) = try run.call(
                API.CanOpenCheck.self,
                .init(app: release.app, platform: release.platform, version: release.version, url: url))
            results.append((url, decision, raw))
        }
        if run.json {
            let parts = results.map { String(decoding: $0.raw, as: UTF8.self) }
            return run.print(parts.count == 1 ? parts[0] : "[" + parts.joined(separator: ",") + "]")
        }
        for (index, result) in results.enumerated() {
            if index > 0 { run.print() }
            run.print(result.url)
            run.print("  " + describe(result.decision, style: run.style))
            if let fallback = result.decision.fallbackUrl { run.print("  fallback: \(fallback)") }
        }
    }

    /// `✗ open in browser: unsupported_version (route lookalikes, supported since 5.12.0)`.
    static func describe(_ decision: Decision, style: Style) -> String {
        let head: String
        switch decision.decision {
        case .openInApp: head = style.green("✓ open in app")
        case .openInBrowser: head = style.yellow("✗ open in browser")
        case .notAssociated: head = style.dim("· not associated with the app")
        }
        var details: [String] = []
        if let route = decision.route { details.append("route \(route)") }
        if let since = decision.supportedSince { details.append("supported since \(since)") }
        var text = head
        // `route` is implied by "open in app"; every other reason is news.
        if let reason = decision.reason, reason != .route { text += ": \(reason.rawValue)" }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        return text
    }

    static func table(_ run: Invocation) throws {
        let release = try ReleaseCommands.releaseKey(run)
        let (result, raw) = try run.call(
            API.CanOpenGetTable.self, .init(app: release.app, platform: release.platform, version: release.version))
        guard let output = run.arguments.value("output") else { return run.printJSON(raw) }
        do {
            try raw.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure("\(output): cannot be written")
        }
        if !run.json {
            let rules = result.table?.rules.count ?? 0
            run.print(
                "Wrote \(output): \(rules) rules for \(release.app) \(release.platform.rawValue) \(release.version), etag \(RouteText.shortETag(result.etag))."
            )
        }
    }

    static func matrix(_ run: Invocation) throws {
        let platform = try ArgumentValues.platform(run.argument(1))
        let (matrix, raw) = try run.call(API.MatrixGet.self, .init(app: run.argument(0), platform: platform))
        if run.json { return run.printJSON(raw) }
        let style = run.style
        run.print(
            "\(matrix.app) \(matrix.platform.rawValue): routes × live versions   "
                + "\(style.green("✓")) open  \(style.yellow("✗")) fallback  \(style.red("⊘")) switched off  – excluded")
        if matrix.versions.isEmpty { run.print("No live versions: publish one with 'routereg release publish'.") }
        let header = ["route", "pattern", "since"] + matrix.versions.map(\.description)
        let rows = matrix.routes.map { row -> [String] in
            let cells = matrix.versions.map { version in
                row.cells.first { $0.version == version }.map { symbol($0.state) } ?? ""
            }
            return [row.route, RouteText.pattern(row.pattern), row.supportedSince?.description ?? ""] + cells
        }
        run.print(
            TextTable.render(rows, header: header) { rowIndex, column, cell in
                guard rowIndex >= 0 else { return style.bold(cell) }
                switch cell.first {
                case "✓": return style.green(cell)
                case "✗": return style.yellow(cell)
                case "⊘": return style.red(cell)
                default: return column == 2 ? style.dim(cell) : cell
                }
            })
    }

    static func symbol(_ state: API.MatrixGet.Cell.State) -> String {
        switch state {
        case .open: "✓"
        case .fallback: "✗"
        case .switchedOff: "⊘"
        case .excluded: "–"
        }
    }
}
