import Foundation
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
        let document = try readJSON(JSONValue.self, file: file)
        let (appResource, _) = try run.call(API.AppsGet.self, .init(app: app))
        let appIDs = run.arguments.value("app-id").map { [$0] } ?? appResource.value.ios?.appIds ?? []
        let plan = try makePlan(
            document, appIDs: appIDs, fallback: appResource.value.fallback, ranges: ranges, prefix: prefix)

        // One call: the server creates every route or none, so a refused rule never leaves half an import.
        var created: [RouteResource] = []
        var createdJSON = "[]"
        if !run.arguments.bool("dry-run"), !plan.routes.isEmpty {
            let before = run.arguments.value("before")
            do {
                let (result, raw) = try run.call(
                    API.RoutesBatchCreate.self, .init(app: app, routes: plan.routes, before: before))
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

    /// The routes for the details entry of `appIDs`, and notes on everything left out.
    static func makePlan(
        _ document: JSONValue, appIDs: [String], fallback: FallbackPolicy, ranges: [Platform: VersionRange],
        prefix: String
    ) throws -> Plan {
        guard case .object(let top) = document, case .object(let applinks)? = top["applinks"],
            case .array(let details)? = applinks["details"]
        else { throw CommandFailure("not an AASA file: expected {\"applinks\": {\"details\": [...]}}") }
        var plan = Plan()
        for key in top.keys.sorted() where key != "applinks" {
            plan.notes.append("\(key): not a universal-links section; declare it on the app (routereg app update)")
        }
        if applinks["substitutionVariables"] != nil {
            plan.notes.append(
                "substitutionVariables: define them on the domain (routereg domain add --substitution-variable NAME=V1,V2); "
                    + "rules using them are imported as written")
        }
        let defaults = applinks["defaults"]
        guard let detail = pickDetail(details, appIDs: appIDs, notes: &plan.notes) else {
            throw CommandFailure(
                "no details entry for \(appIDs.isEmpty ? "the app" : appIDs.joined(separator: ", ")) (use --app-id)")
        }
        var rules: [JSONValue] = []
        if case .array(let components)? = detail["components"] {
            rules = components
        } else if case .array(let paths)? = detail["paths"] {
            rules = paths.map { path -> JSONValue in
                guard let text = path.stringValue else { return path }
                if text.hasPrefix("NOT ") {
                    return .object(["/": .string(String(text.dropFirst(4))), "exclude": .bool(true)])
                }
                return .object(["/": .string(text)])
            }
        }
        for (index, rule) in rules.enumerated() {
            let label = "rule \(index + 1)"
            switch RuleImport.route(
                rule, id: "\(prefix)-\(plan.routes.count + 1)", defaults: defaults, fallback: fallback, ranges: ranges)
            {
            case .route(let route, let notes):
                plan.routes.append(route)
                plan.notes += notes.map { "\(label): \($0)" }
            case .skipped(let reason):
                plan.notes.append("\(label): \(reason)")
            }
        }
        return plan
    }

    private static func pickDetail(_ details: [JSONValue], appIDs: [String], notes: inout [String]) -> JSONValue? {
        func ids(_ detail: JSONValue) -> [String] {
            var result: [String] = []
            if case .array(let list)? = detail["appIDs"] { result += list.compactMap(\.stringValue) }
            if let single = detail["appID"]?.stringValue { result.append(single) }
            return result
        }
        let chosen =
            details.first { !Set(ids($0)).isDisjoint(with: appIDs) } ?? (details.count == 1 ? details.first : nil)
        for detail in details where detail != chosen {
            notes.append(
                "details entry for \(ids(detail).joined(separator: ", ")): another app's; import it into that app")
        }
        return chosen
    }
}
