import Foundation
import RouteCore

/// `routereg aasa status [HOST]` and `routereg release status APP PLATFORM VERSION`: what Apple's CDN and
/// Google serve, as the server's delivery watch last observed (`Associations.Delivery`).
enum DeliveryCommands {
    static let aasaStatus = CommandSpec(
        ["aasa", "status"], summary: "what Apple's CDN (and Google) serve per domain, against the published revision",
        details: """
            Per domain: the published revision, the one Apple's CDN serves (matched by JSON meaning; "unpublished"
            for a file the registry never published, "none" when the CDN has no copy), since when, how many newer
            revisions wait and for how long, and the last observation. The server's delivery watch observes the
            CDN about hourly (routereg serve --delivery-interval); assetlinks rows are what Google's Digital Asset
            Links API lists. With --json: the Associations.Delivery result.
            """,
        positionals: [PositionalSpec(name: "HOST", summary: "only this domain", optional: true)],
        flags: [AASACommands.kind], examples: ["aasa status", "aasa status m.badoo.com"], action: .run(status))

    static let releaseStatus = CommandSpec(
        ["release", "status"], summary: "per domain, whether devices get the links this version opens yet",
        details: """
            For each domain of the app: whether the document Apple's CDN serves (Google's, for Android) already
            claims the routes this version opens, and which routes are still pending there. Exit status 0 when
            every route is delivered, 1 otherwise.
            """,
        positionals: ReleaseCommands.key, examples: ["release status badoo ios 5.12.0"], action: .run(release))

    static func status(_ run: Invocation) throws {
        let (result, raw) = try run.call(
            API.AssociationsDelivery.self,
            .init(host: run.arguments.positional(0), kind: try AASACommands.documentKind(run)))
        if run.json { return run.printJSON(raw) }
        if result.documents.isEmpty { return run.print("No domain has a generated document yet.") }
        let rows = result.documents.map { status in
            [
                status.host, status.kind.rawValue, String(status.currentRevision), served(status),
                status.servingSince.map { run.ago($0) } ?? "", behind(status),
                status.lastObservationTime.map { "\(run.ago($0)): \(outcome(status))" } ?? "never",
            ]
        }
        run.print(
            TextTable.render(
                rows, header: ["host", "kind", "published", "served", "since", "behind", "last observation"]))
    }

    /// "revision 7", "unpublished", "none (404)", "unknown".
    static func served(_ status: DeliveryStatus) -> String {
        switch status.served {
        case .revision: return "revision \(status.servedRevision ?? 0)"
        case .unpublished: return "not a revision we published"
        case .none: return "none (404)"
        case .unknown: return "unknown"
        }
    }

    /// "current", "2 revisions, newest waiting 3 h".
    static func behind(_ status: DeliveryStatus) -> String {
        guard let revisions = status.revisionsBehind else { return "unknown" }
        if revisions == 0 { return "current" }
        let wait = status.secondsBehind.map { " for \(duration($0))" } ?? ""
        if revisions < 0 { return "not ours\(wait)" }
        return "\(revisions) revision\(revisions == 1 ? "" : "s")\(wait)"
    }

    static func outcome(_ status: DeliveryStatus) -> String {
        let name = status.lastOutcome ?? "?"
        if let error = status.lastError { return "\(name) (\(error))" }
        if let code = status.lastHttpStatus, name == "http_error" { return "\(name) \(code)" }
        return name
    }

    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: return "\(Int(seconds)) s"
        case ..<7200: return "\(Int(seconds / 60)) min"
        case ..<172_800: return "\(Int(seconds / 3600)) h"
        default: return "\(Int(seconds / 86_400)) days"
        }
    }

    /// `release status`.
    static func release(_ run: Invocation) throws {
        let key = try ReleaseCommands.releaseKey(run)
        let (answer, _) = try run.call(
            API.CanOpenGetTable.self, .init(app: key.app, platform: key.platform, version: key.version))
        guard let table = answer.table else { throw CommandFailure("the server sent no canOpen table") }
        let kind: DocumentKind = key.platform == .ios ? .aasa : .assetlinks
        var report: [[String: Any]] = []
        var allDelivered = true
        if !run.json { run.print("\(key.app) \(key.platform.rawValue) \(key.version):") }
        for scope in table.domains {
            let opens = scope.rules.map { table.rules[$0] }.filter { $0.verdict == .open }.map(\.route)
            var routes: [String] = []
            for route in opens where !routes.contains(route) { routes.append(route) }
            let delivery = try run.call(API.AssociationsDelivery.self, .init(host: scope.name, kind: kind)).output
            guard let status = delivery.documents.first else {
                if !run.json { run.print("  \(scope.name): no generated document") }
                continue
            }
            var pending: [String] = []
            var unpublished: [String] = []
            if kind == .aasa {
                // The server says which routes the served copy claims and which the current revision adds.
                let claims = status.claimedRoutes?.first { $0.app == key.app }
                let served = claims?.routes ?? []
                let waiting = claims?.pending ?? []
                for route in routes where !served.contains(route) {
                    if waiting.contains(route) { pending.append(route) } else { unpublished.append(route) }
                }
            } else if status.revisionsBehind != 0 {
                pending = routes
            }
            if !pending.isEmpty || !unpublished.isEmpty { allDelivered = false }
            report.append([
                "host": scope.name, "kind": kind.rawValue, "served": served(status),
                "routes": routes, "pending": pending, "notPublished": unpublished,
                "delivered": pending.isEmpty && unpublished.isEmpty,
            ])
            if run.json { continue }
            let service = kind == .aasa ? "Apple's CDN" : "Google"
            if pending.isEmpty && unpublished.isEmpty {
                run.print("  \(scope.name): delivered (\(service) serves \(served(status)); \(routes.count) routes)")
            } else {
                run.print("  \(scope.name): \(service) serves \(served(status)), \(behind(status))")
                if !pending.isEmpty { run.print("    pending at \(service): \(pending.joined(separator: ", "))") }
                if !unpublished.isEmpty {
                    run.print("    not in the published revision: \(unpublished.joined(separator: ", "))")
                }
            }
        }
        if run.json {
            let data = try JSONSerialization.data(withJSONObject: ["domains": report], options: [.sortedKeys])
            run.printJSON(data)
        }
        if !allDelivered { throw CommandFailure("not every route this version opens is delivered yet") }
    }
}
