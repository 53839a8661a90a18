import Foundation
import RouteCore

/// `routereg release publish|retire|list`.
enum ReleaseCommands {
    static let key = [
        PositionalSpec(name: "APP", summary: "the app ID"),
        PositionalSpec(name: "PLATFORM", summary: "ios or android"),
        PositionalSpec(name: "VERSION", summary: "the version, e.g. 5.12.0 (Android: versionCode or name)"),
    ]
    static let dryRun = FlagSpec.bool("dry-run", "show what would change (Associations.Preview), change nothing")

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["release", "publish"], summary: "make a version live and regenerate the AASA of every domain",
            details: """
                Prints the revisions created, the rules added and removed per domain (against each domain's previous
                revision), and lint warnings. With --json: the Releases.Publish result only (or, with --dry-run, the
                Associations.Preview result).
                """,
            positionals: key, flags: [dryRun],
            examples: ["release publish badoo ios 5.12.0 --dry-run", "release publish badoo ios 5.12.0"],
            action: .run { try change($0, retire: false) }),
        CommandSpec(
            ["release", "retire"], summary: "retire a live version: rules only it handled leave the AASA",
            positionals: key, flags: [dryRun], examples: ["release retire badoo ios 5.11.0"],
            action: .run { try change($0, retire: true) }),
        CommandSpec(
            ["release", "list"], summary: "list an app's releases, newest version first",
            positionals: [key[0]],
            flags: [
                .value("platform", "PLATFORM", "only ios or android"),
                .value("state", "STATE", "only draft, live or retired"),
            ] + CommonFlags.paging,
            examples: ["release list badoo --platform ios --state live"], action: .run(list)),
        DeliveryCommands.releaseStatus,
    ]

    static func releaseKey(_ run: Invocation) throws(UsageError) -> ReleaseKey {
        ReleaseKey(
            app: run.argument(0), platform: try ArgumentValues.platform(run.argument(1)),
            version: try ArgumentValues.version(run.argument(2)))
    }

    static func change(_ run: Invocation, retire: Bool) throws {
        let key = try releaseKey(run)
        if run.arguments.bool("dry-run") {
            return try AASACommands.preview(run, key: key, action: retire ? .retire : .publish)
        }
        let (result, raw) =
            try retire
            ? run.call(API.ReleasesRetire.self, .init(key)) : run.call(API.ReleasesPublish.self, .init(key))
        if run.json { return run.printJSON(raw) }
        let verb = retire ? "Retired" : "Published"
        run.print("\(verb) \(key.app) \(key.platform.rawValue) \(key.version): \(result.release.state.rawValue).")
        if result.revisions.isEmpty {
            run.print("No domain serves \(key.app): no documents were generated.")
        } else {
            run.print()
            let rows = result.revisions.map { ref in
                [
                    ref.host, ref.kind.rawValue, String(ref.revision), ref.changed ? "new revision" : "unchanged",
                    RouteText.shortETag(ref.etag),
                ]
            }
            run.print(
                TextTable.render(rows, header: ["domain", "kind", "revision", "change", "etag"]) { row, _, cell in
                    row < 0 ? run.style.bold(cell) : cell
                })
        }
        for ref in result.revisions where ref.changed && ref.revision > 1 {
            let (diff, _) = try run.call(
                API.AssociationsDiff.self,
                .init(host: ref.host, kind: ref.kind, fromRevision: ref.revision - 1, toRevision: ref.revision))
            run.print()
            run.print(
                run.style.bold("\(ref.host) \(ref.kind.rawValue): revision \(ref.revision - 1) → \(ref.revision)"))
            let lines = DiffText.lines(diff, style: run.style)
            run.print(
                lines.isEmpty ? "(same rules; only the document's other fields changed)" : lines.joined(separator: "\n")
            )
        }
        printLint(result.lint, run)
    }

    static func printLint(_ findings: [LintFinding], _ run: Invocation) {
        guard !findings.isEmpty else { return }
        run.print()
        run.print(run.style.bold("Lint:"))
        for line in DiffText.lint(findings, style: run.style) { run.print("  " + line) }
    }

    static func list(_ run: Invocation) throws {
        let page = try run.page()
        var state: ReleaseState?
        if let text = run.arguments.value("state") {
            guard let parsed = ReleaseState(rawValue: text) else {
                throw UsageError("--state: \"\(text)\" is not a release state (draft, live or retired)")
            }
            state = parsed
        }
        let platform = try run.arguments.value("platform").map { text throws(UsageError) in
            try ArgumentValues.platform(text, field: "--platform")
        }
        let (result, raw) = try run.call(
            API.ReleasesList.self,
            .init(.init(app: run.argument(0), platform: platform, state: state), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No releases of \(run.argument(0)).") }
        let rows = result.items.map { release in
            [
                release.platform.rawValue, release.version.description, release.state.rawValue,
                run.ago(release.publishTime), run.ago(release.retireTime),
            ]
        }
        run.print(
            TextTable.render(rows, header: ["platform", "version", "state", "published", "retired"]) {
                row, column, cell in
                guard row >= 0 else { return run.style.bold(cell) }
                guard column == 2 else { return cell }
                switch result.items[row].state {
                case .live: return run.style.green(cell)
                case .retired: return run.style.dim(cell)
                case .draft: return cell
                }
            })
        run.printNextPage(result.nextPageToken)
    }
}
