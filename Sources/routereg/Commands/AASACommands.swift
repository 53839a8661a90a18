import Foundation
import RouteCore

/// `routereg aasa show|revisions|diff|preview|check|import|lint`.
enum AASACommands {
    static let host = PositionalSpec(name: "HOST", summary: "the domain, e.g. m.badoo.com")
    static let kind = FlagSpec.value("kind", "KIND", "aasa (default) or assetlinks")

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["aasa", "show"], summary: "print a domain's generated document (latest, or --revision N)",
            positionals: [host], flags: [kind, .value("revision", "N", "this revision instead of the latest")],
            examples: ["aasa show m.badoo.com", "aasa show m.badoo.com --revision 2 --kind assetlinks"],
            action: .run(show)),
        CommandSpec(
            ["aasa", "revisions"], summary: "list a domain's document revisions, newest first",
            positionals: [host], flags: [kind] + CommonFlags.paging, examples: ["aasa revisions m.badoo.com"],
            action: .run(revisions)),
        CommandSpec(
            ["aasa", "diff"], summary: "rules removed and added between two revisions",
            details: "Without TO, compares with the latest revision; without FROM, with the revision before TO.",
            positionals: [
                host, PositionalSpec(name: "FROM", summary: "older revision", optional: true),
                PositionalSpec(name: "TO", summary: "newer revision", optional: true),
            ],
            flags: [kind], examples: ["aasa diff m.badoo.com", "aasa diff m.badoo.com 2 3"], action: .run(diff)),
        CommandSpec(
            ["aasa", "preview"], summary: "what publishing (or retiring) a version would change, without changing it",
            positionals: ReleaseCommands.key, flags: [.bool("retire", "preview a retire instead of a publish")],
            examples: ["aasa preview badoo ios 5.12.0"],
            action: .run { run in
                try preview(
                    run, key: try ReleaseCommands.releaseKey(run),
                    action: run.arguments.bool("retire") ? .retire : .publish)
            }),
        DeliveryCommands.aasaStatus,
        AASAImport.spec,
        AASALint.spec,
        AASACheckCommand.spec,
    ]

    static func documentKind(_ run: Invocation) throws(UsageError) -> DocumentKind? {
        guard let text = run.arguments.value("kind") else { return nil }
        guard let kind = DocumentKind(rawValue: text) else {
            throw UsageError("--kind: \"\(text)\" is not a document kind (aasa or assetlinks)")
        }
        return kind
    }

    static func show(_ run: Invocation) throws {
        let revision = try run.arguments.value("revision").map { text throws(UsageError) in
            try ArgumentValues.revision(text, field: "--revision")
        }
        let (document, raw) = try run.call(
            API.AssociationsGet.self, .init(host: run.argument(0), kind: try documentKind(run), revision: revision))
        if run.json { return run.printJSON(raw) }
        run.print(
            run.style.dim(
                "# \(document.host) \(document.kind.rawValue) revision \(document.revision): \(document.cause), "
                    + "\(run.ago(document.createTime)), etag \(RouteText.shortETag(document.etag))"))
        run.print(pretty(document.document))
    }

    static func revisions(_ run: Invocation) throws {
        let page = try run.page(defaultSize: 50)
        let (result, raw) = try run.call(
            API.AssociationsListRevisions.self,
            .init(.init(host: run.argument(0), kind: try documentKind(run)), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty { return run.print("No revisions of \(run.argument(0)) yet.") }
        let rows = result.items.map {
            [String($0.revision), $0.cause, run.ago($0.createTime), RouteText.shortETag($0.etag)]
        }
        run.print(TextTable.render(rows, header: ["revision", "cause", "created", "etag"]))
        run.printNextPage(result.nextPageToken)
    }

    static func diff(_ run: Invocation) throws {
        let host = run.argument(0)
        let kind = try documentKind(run)
        var to = try run.arguments.positional(2).map { text throws(UsageError) in
            try ArgumentValues.revision(text, field: "TO")
        }
        let from = try run.arguments.positional(1).map { text throws(UsageError) in
            try ArgumentValues.revision(text, field: "FROM")
        }
        if to == nil { to = try run.call(API.AssociationsGet.self, .init(host: host, kind: kind)).output.revision }
        let toRevision = to!
        let fromRevision = from ?? toRevision - 1
        guard fromRevision >= 1 else {
            throw CommandFailure("\(host) has only revision \(toRevision): nothing to compare it with")
        }
        let (diff, raw) = try run.call(
            API.AssociationsDiff.self, .init(host: host, kind: kind, fromRevision: fromRevision, toRevision: toRevision)
        )
        if run.json { return run.printJSON(raw) }
        let name = (kind ?? .aasa).rawValue
        run.print(run.style.bold("--- \(host) \(name) revision \(fromRevision)"))
        run.print(run.style.bold("+++ \(host) \(name) revision \(toRevision)"))
        let lines = DiffText.lines(diff, style: run.style)
        run.print(lines.isEmpty ? "(no rule changed)" : lines.joined(separator: "\n"))
    }

    /// `aasa preview` and `release publish|retire --dry-run`.
    static func preview(_ run: Invocation, key: ReleaseKey, action: API.AssociationsPreview.Action) throws {
        let (result, raw) = try run.call(
            API.AssociationsPreview.self,
            .init(app: key.app, platform: key.platform, version: key.version, action: action))
        if run.json { return run.printJSON(raw) }
        run.print(
            "Dry run: \(action.rawValue) \(key.app) \(key.platform.rawValue) \(key.version) (nothing was changed)")
        if result.documents.isEmpty { run.print("No domain serves \(key.app).") }
        for document in result.documents {
            run.print()
            let state = document.changed ? "would change" : "unchanged"
            run.print(run.style.bold("\(document.host) \(document.kind.rawValue): \(state)"))
            let lines = DiffText.lines(document.diff, style: run.style)
            if !lines.isEmpty { run.print(lines.joined(separator: "\n")) }
        }
        ReleaseCommands.printLint(result.lint, run)
    }

    /// A document as indented JSON with sorted keys and readable slashes.
    static func pretty(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
