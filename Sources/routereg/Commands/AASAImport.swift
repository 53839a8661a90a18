import Foundation
import JSONBytes
import RouteCore

/// `routereg aasa import FILE --app APP`: the adoption path for teams with a hand-written AASA. Each rule
/// of the app's `details` entry becomes a route, in order (`exclude` rules become exclude routes); what a
/// route cannot hold is reported rather than silently dropped.
enum AASAImport {
    static let spec = CommandSpec(
        ["aasa", "import"], summary: "turn an existing AASA file into routes",
        details: """
            Reads the details entry of the app (matched by its iOS app IDs, or --app-id) and creates one route per
            rule, in order: exclude rules become exclude routes; open rules are handled from --since (default
            ios=0). The file's top-level defaults are folded into each rule. Reports what cannot be represented.
            All routes are created in one write (Routes.BatchCreate): if the server refuses one, none is created.
            With --json: {"notImported": [notes], "routes": [the created routes]}.
            """,
        positionals: [PositionalSpec(name: "FILE", summary: "the apple-app-site-association file (- for stdin)")],
        flags: [
            .value("app", "APP", "the app to add the routes to (required)"),
            .value("app-id", "TEAMID.BUNDLE", "which details entry to import (default: the app's iOS app ID)"),
            .value(
                "since", "PLATFORM=VERSION", "version range start of imported open rules (default ios=0)",
                repeatable: true),
            .value("id-prefix", "PREFIX", "route IDs are PREFIX-1, PREFIX-2, ... (default imported)"),
            .value("before", "ROUTE", "insert the routes before this route (default: after the last one)"),
            .bool("dry-run", "show the routes that would be created, create nothing"),
        ],
        examples: ["aasa import apple-app-site-association --app badoo --since ios=5.0"],
        action: .run(run))

    /// One route to create, or why a rule was left out.
    struct Plan {
        var routes: [Route] = []
        var notes: [String] = []
    }

    static func run(_ run: Invocation) throws {
        guard let app = run.arguments.value("app") else {
            throw UsageError("missing flag --app APP for 'routereg aasa import'")
        }
        let prefix = run.arguments.value("id-prefix") ?? "imported"
        var since = try ArgumentValues.platformVersions(run.arguments.values("since"), flag: "since")
        if since.isEmpty { since = [.ios: "0"] }
        var ranges: [Platform: VersionRange] = [:]
        for (platform, text) in since {
            ranges[platform] = VersionRange(
                since: try ArgumentValues.version(text, field: "--since \(platform.rawValue)"))
        }
        let file = run.argument(0)
        // Read strictly (a trailing comma makes iOS ignore the whole file), then parsed as `aasa check` does.
        let data = try readStrictJSON(file: file)
        do {
            _ = try parse(data)
        } catch let failure as CommandFailure {
            throw CommandFailure("\(file) \(failure.message)")
        }
        let (appResource, _) = try run.call(API.AppsGet.self, .init(app: app))
        let appIDs = run.arguments.value("app-id").map { [$0] } ?? appResource.value.ios?.appIds ?? []
        let plan = try makePlan(
            data, appIDs: appIDs, fallback: appResource.value.fallback, ranges: ranges, prefix: prefix)

        // One call: the server creates every route or none, so a refused rule never leaves half an import.
        var created: [RouteResource] = []
        var createdJSON = "[]"
        if !run.arguments.bool("dry-run"), !plan.routes.isEmpty {
            let before = run.arguments.value("before")
            do {
                let (result, raw) = try run.call(
                    API.RoutesBatchCreate.self, WriteRequest(.init(app: app, routes: plan.routes, before: before)))
                created = result.routes
                if case .object(let fields) = try JSONDecoder().decode(JSONValue.self, from: raw),
                    let routes = fields["routes"]
                {
                    createdJSON = String(decoding: try CanonicalJSON.encode(routes), as: UTF8.self)
                }
            } catch let error as RegistryError where error.code == .alreadyExists {
                throw CommandFailure(
                    "\(CLI.describe(error)); nothing was imported (a second import needs another --id-prefix)")
            } catch let error as RegistryError {
                throw CommandFailure("\(CLI.describe(error)); nothing was imported")
            }
        }
        if run.json {
            let notes = String(decoding: try CanonicalJSON.encode(plan.notes), as: UTF8.self)
            run.print("{\"notImported\":\(notes),\"routes\":\(createdJSON)}")
        } else {
            let verb = run.arguments.bool("dry-run") ? "Would create" : "Created"
            let count = run.arguments.bool("dry-run") ? plan.routes.count : created.count
            run.print("\(verb) \(count) route\(count == 1 ? "" : "s") in \(app) from \(file):")
            let rows = plan.routes.map { route in
                [
                    route.id, route.action.rawValue, RouteText.pattern(route.pattern),
                    Platform.allCases.compactMap { p in
                        route.platforms[p].map { "\(p.rawValue) \(RouteText.range($0))" }
                    }
                    .joined(separator: ", "), route.comment ?? "",
                ]
            }
            if !rows.isEmpty {
                run.print(TextTable.render(rows, header: ["route", "action", "pattern", "versions", "comment"]))
            }
            if !plan.notes.isEmpty {
                run.print()
                run.print(run.style.yellow("Not imported:"))
                for note in plan.notes { run.print("  " + note) }
            }
        }
    }

    /// The routes for the details entries of `appIDs`, and notes on everything left out.
    ///
    /// The file is read by the same parser as `aasa check` (`AASADocument`), and each route is built from the
    /// rule as that parser resolved it, so the imported routes decide every URL the way `aasa check` says
    /// the file does: a file `check` refuses is refused here with the same reason, every details entry that
    /// lists the app is imported in order (iOS reads them one after the other), per-detail `defaults` count,
    /// and legacy `paths` keep their fixed options.
    static func makePlan(
        _ data: Data, appIDs: [String], fallback: FallbackPolicy, ranges: [Platform: VersionRange], prefix: String
    ) throws -> Plan {
        let document = try parse(data)
        guard case .object(let top) = try JSONValue(json: data) else {
            throw CommandFailure("not an AASA file: expected {\"applinks\": {\"details\": [...]}}")
        }
        var applinks: [String: JSONValue] = [:]
        if case .object(let members)? = top["applinks"] { applinks = members }
        var plan = Plan()
        for key in top.keys.sorted() where key != "applinks" {
            plan.notes.append("\(key): not a universal-links section; declare it on the app (routereg app update)")
        }
        if applinks["substitutionVariables"] != nil {
            plan.notes.append(
                "substitutionVariables: define them on the domain (routereg domain add --substitution-variable NAME=V1,V2); "
                    + "rules using them are imported as written")
        }
        var chosen = document.details.indices.filter { !Set(document.details[$0].appIDs).isDisjoint(with: appIDs) }
        if chosen.isEmpty && document.details.count == 1 { chosen = [0] }
        guard !chosen.isEmpty else {
            // As `aasa check` says for every URL: a file without a details entry for the app opens nothing in it.
            let why =
                document.details.isEmpty
                ? ": the file has no applinks details (it claims no universal link)" : " (use --app-id)"
            throw CommandFailure(
                "no details entry for \(appIDs.isEmpty ? "the app" : appIDs.joined(separator: ", "))\(why)")
        }
        for index in document.details.indices where !chosen.contains(index) {
            plan.notes.append(
                "details entry for \(document.details[index].appIDs.joined(separator: ", ")): another app's; "
                    + "import it into that app")
        }
        var number = 0
        for detailIndex in chosen {
            let detail = document.details[detailIndex]
            for (ruleIndex, rule) in detail.rules.enumerated() {
                number += 1
                let written = (try? JSONValue(json: Data(detail.ruleJSON[ruleIndex].utf8))) ?? .null
                switch RuleImport.route(
                    rule, written: written, id: "\(prefix)-\(plan.routes.count + 1)", fallback: fallback,
                    ranges: ranges)
                {
                case .route(let route, let notes):
                    plan.routes.append(route)
                    plan.notes += notes.map { "rule \(number): \($0)" }
                case .skipped(let reason):
                    plan.notes.append("rule \(number): \(reason)")
                }
            }
        }
        return plan
    }

    /// The file as `aasa check` reads it; refused with the same reason `aasa check` gives.
    static func parse(_ data: Data) throws -> AASADocument {
        do {
            return try AASADocument(json: data)
        } catch let problem as AASADocumentError {
            throw CommandFailure("is not a usable AASA file: \(problem.message)")
        }
    }
}
