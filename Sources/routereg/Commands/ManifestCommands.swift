import Foundation
import RouteCore
import RouteRegistryClient

/// `routereg export|plan|apply`: an app's routes, domains and settings as a manifest kept in its repository,
/// what applying one would change, and applying it (issue 44, "Routes as code").
enum ManifestCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            ["export"], summary: "write an app's settings, domains and routes as a manifest",
            details: """
                Reads the app, the domains that list it and its routes in order, and writes them as a manifest
                (Schema/routereg-manifest.schema.json): the file a team keeps in its repository and plans from.
                Releases, switch-offs and short links are not part of it. Without --out, prints it.
                """,
            positionals: [AppCommands.appArgument],
            flags: [.value("out", "FILE", "write the manifest to FILE instead of printing it")],
            examples: ["export badoo --out routereg.json"], action: .run(export)),
        CommandSpec(
            ["plan"], summary: "show what applying a manifest would change",
            details: """
                Compares the manifest with the registry and prints one line per change: + added, ~ changed or
                moved, - removed; routes the registry has and the manifest does not are listed as not in the
                manifest and kept. Then the rules each live version would gain (+) or lose (-) on each domain
                (m.badoo.com ios 5.12.0: + /l/a/*). With --prune, those a manifest manages (created or adopted by
                an apply) are removals; routes managed by hand are kept; a removal live versions still open is
                marked with ! and the versions (apply refuses it without --allow-breaking). The plan records the
                registry state it was computed from (a fingerprint of every resource read). --json prints the
                plan as JSON ($defs/Plan of the manifest schema, the live versions' rules as liveLinks); --out
                writes it to a file with the manifest, for routereg apply PLAN. Exit codes: 0 on success; with
                --detailed-exitcode, 0 no changes, 2 changes, 1 any error.
                """,
            positionals: [PositionalSpec(name: "MANIFEST", summary: "the manifest file (routereg.json)")],
            flags: [
                .value("out", "PLAN", "also write the plan and the manifest as JSON to PLAN"),
                .bool("prune", "plan removing the managed routes the manifest leaves out"),
                .bool("detailed-exitcode", "exit 0 with no changes, 2 with changes, 1 on any error"),
            ],
            examples: ["plan routereg.json", "plan routereg.json --detailed-exitcode --out plan.json"],
            action: .run(plan)),
        applySpec,
    ]

    static func export(_ run: Invocation) throws {
        let state = try readState(run, app: run.argument(0))
        guard let manifest = Manifest(exporting: state) else {
            throw CommandFailure("app \(run.argument(0)) not found")
        }
        let data = try encode(manifest, pretty: true)
        guard let out = run.arguments.value("out") else {
            return run.print(String(decoding: data, as: UTF8.self))
        }
        try write(data + Data("\n".utf8), to: out)
        if !run.json {
            run.print(
                "Wrote \(out): app \(manifest.app.id), \(manifest.domains.count) domains, \(manifest.routes.count) routes."
            )
        }
    }

    static func plan(_ run: Invocation) throws {
        let file = run.argument(0)
        let manifest = try readManifest(try readInput(file: file), file: file)
        let state = try readState(run, app: manifest.app.id)
        var plan = ManifestPlan(manifest: manifest, state: state, prune: run.arguments.bool("prune"))
        let releases = try liveReleases(run, plan, state: state)
        plan.addLiveLinks(manifest: manifest, state: state, releases: releases)
        if let out = run.arguments.value("out") {
            var saved = plan
            saved.manifest = manifest
            try write(try encode(saved, pretty: true), to: out)
        }
        if run.json {
            run.print(String(decoding: try encode(plan, pretty: false), as: UTF8.self))
        } else {
            run.print("Plan for \(manifest.app.id) against registry state \(plan.basis.fingerprint.prefix(19))…")
            for line in plan.lines + plan.liveLinkLines { run.print(line) }
            for removal in plan.breakingRemovals(in: state, releases: releases) {
                run.print("! \(removal.text): apply refuses this prune without --allow-breaking")
            }
            run.print(plan.summaryLine)
        }
        if run.arguments.bool("detailed-exitcode") && plan.hasChanges { run.exitStatus = CLI.exitChanges }
    }

    /// The app's live releases, read only when the plan adds, changes or removes a route (what a live
    /// version gains or loses, and which removals break one); otherwise no call is made.
    static func liveReleases(_ run: Invocation, _ plan: ManifestPlan, state: ManifestState) throws -> [Release] {
        guard state.app != nil, plan.changesRules else { return [] }
        var releases: [Release] = []
        var token: String?
        repeat {
            let page = try run.call(
                API.ReleasesList.self,
                .init(.init(app: state.appID, state: .live), PageRequest(pageSize: 1000, pageToken: token))
            ).output
            releases += page.items.map {
                Release(app: $0.app, platform: $0.platform, version: $0.version, state: $0.state)
            }
            token = page.nextPageToken.isEmpty ? nil : page.nextPageToken
        } while token != nil
        return releases
    }

    /// The app, the domains that list it and its routes, every page; a missing app reads as nil.
    static func readState(_ run: Invocation, app: String) throws -> ManifestState {
        let resource: Resource<App>
        do {
            resource = try run.call(API.AppsGet.self, .init(app: app)).output
        } catch let error as RegistryError where error.code == .notFound {
            return ManifestState(appID: app, app: nil)
        }
        var domains: [Resource<Domain>] = []
        var token: String?
        repeat {
            let page = try run.call(
                API.DomainsList.self, .init(.init(app: app), PageRequest(pageSize: 1000, pageToken: token))
            ).output
            domains += page.items
            token = page.nextPageToken.isEmpty ? nil : page.nextPageToken
        } while token != nil
        var routes: [RouteResource] = []
        repeat {
            let page = try run.call(
                API.RoutesList.self, .init(.init(app: app), PageRequest(pageSize: 1000, pageToken: token))
            ).output
            routes += page.items
            token = page.nextPageToken.isEmpty ? nil : page.nextPageToken
        } while token != nil
        return ManifestState(appID: app, app: resource, domains: domains, routes: routes)
    }

    /// Sorted members, so a manifest in git diffs by what changed, not by encoder order.
    static func encode(_ value: some Encodable, pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        return try encoder.encode(value)
    }

    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("\(path): cannot be written")
        }
    }
}
