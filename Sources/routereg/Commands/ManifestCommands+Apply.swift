import Foundation
import RouteCore
import RouteRegistryClient

/// `routereg apply PLAN|MANIFEST`: the manifest's routes applied in one write (`Manifests.Apply`).
extension ManifestCommands {
    static let applySpec = CommandSpec(
        ["apply"], summary: "apply a saved plan or a manifest's routes in one write",
        details: """
            Applies the routes of a manifest in one write, all or nothing: added, changed, moved and, with
            --prune, the routes a manifest manages that this one leaves out removed (routes managed by hand
            stay). Every route the manifest lists becomes managed by it. A saved plan (plan --out) is applied
            exactly as reviewed: refused, with nothing applied, when the registry moved since (the message
            names what moved) or the plan would differ. A manifest is planned and applied at once. A prune
            that would drop a route live versions open is refused unless --allow-breaking. The app's fields
            and domains are an admin's: with an admin token they are written too (domains created or updated,
            never deleted); with a releaser's, a manifest that changes them is refused. Audited as one entry
            naming --source (default: $GITHUB_SHA, then $CI_COMMIT_SHA); nothing to change writes nothing.
            Retries are safe (one requestId).
            """,
        positionals: [PositionalSpec(name: "PLAN|MANIFEST", summary: "a saved plan (plan --out) or a manifest")],
        flags: [
            .value("source", "S", "the manifest's commit or origin, for the audit log and the routes"),
            .bool("prune", "remove the managed routes the manifest leaves out"),
            .bool("allow-breaking", "let a prune remove routes live versions still open"),
        ],
        examples: ["apply plan.json --source \"$GITHUB_SHA\"", "apply routereg.json --prune"],
        action: .run(apply))

    static func apply(_ run: Invocation) throws {
        let file = run.argument(0)
        let (manifest, reviewed) = try readManifestOrPlan(try readInput(file: file), file: file)
        var prune = run.arguments.bool("prune")
        if let reviewed {
            // A saved plan is applied as reviewed: a prune it did not plan would remove what nobody saw.
            if prune && reviewed.prune != true {
                throw CommandFailure("\(file) was planned without --prune: plan again with --prune to review it")
            }
            prune = reviewed.prune == true
        }
        let variables = run.environment.variables
        let source = [run.arguments.value("source"), variables["GITHUB_SHA"], variables["CI_COMMIT_SHA"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        let params = API.ManifestsApply.Params(
            manifest: manifest, basis: reviewed?.basis, changes: reviewed?.changes, prune: prune ? true : nil,
            allowBreaking: run.arguments.bool("allow-breaking") ? true : nil, source: source)
        let (output, raw) = try run.call(API.ManifestsApply.self, WriteRequest(params))
        if run.json { return run.printJSON(raw) }
        run.print("Applied \(manifest.app.id)" + (source.map { " from \($0)" } ?? "") + ":")
        for line in output.plan.changes.map(\.line) { run.print(line) }
        func count(_ action: ManifestPlan.Change.Action) -> Int {
            output.plan.changes.filter { $0.action == action }.count
        }
        run.print(
            output.plan.hasChanges
                ? "Apply complete: \(count(.add)) added, \(count(.change)) changed, \(count(.move)) moved, "
                    + "\(count(.remove)) removed."
                : "No changes: the registry already matched the manifest.")
        run.print("Registry state now \(output.fingerprint.prefix(19))…")
    }

    /// The manifest of `data`, and the reviewed plan when `data` is a saved plan (it has `basis` and
    /// `changes`), which must carry its manifest.
    static func readManifestOrPlan(_ data: Data, file: String) throws -> (Manifest, ManifestPlan?) {
        let isPlan: Bool
        if case .object(let members)? = try? JSONValue(json: data) {
            isPlan = members["basis"] != nil && members["changes"] != nil
        } else {
            isPlan = false
        }
        guard isPlan else { return (try readManifest(data, file: file), nil) }
        let plan: ManifestPlan
        do { plan = try JSONDecoder().decode(ManifestPlan.self, from: data) } catch {
            throw CommandFailure("\(file): not a plan written by routereg plan --out")
        }
        guard let manifest = plan.manifest else {
            throw CommandFailure(
                "\(file): the plan does not carry its manifest; write it with routereg plan MANIFEST --out PLAN")
        }
        return (manifest, plan)
    }

    /// The manifest of `data`, read strictly; a refusal names the file and the member at fault.
    static func readManifest(_ data: Data, file: String) throws -> Manifest {
        do {
            return try Manifest(strictJSON: data)
        } catch {
            throw CommandFailure("\(file): \(error)")
        }
    }
}
