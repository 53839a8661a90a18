import Foundation
import RouteCore

/// Rule-level document differences printed like a unified diff: `- {rule}` removed, `+ {rule}` added,
/// grouped per app ID.
enum DiffText {
    /// The lines for `diff` (empty when nothing changed), each rule as compact JSON with sorted keys.
    static func lines(_ diff: DocumentDiff, style: Style) -> [String] {
        var apps: [String] = []
        for app in diff.removed.map(\.app) + diff.added.map(\.app) + diff.changed.map(\.after.app)
        where !apps.contains(app) {
            apps.append(app)
        }
        var lines: [String] = []
        for app in apps {
            lines.append(style.cyan("@@ \(app) @@"))
            var entries: [(index: Int, line: String)] = []
            for rule in diff.removed where rule.app == app {
                entries.append((rule.index, style.red("- " + json(rule.rule))))
            }
            for change in diff.changed where change.after.app == app {
                entries.append((change.after.index, style.red("- " + json(change.before.rule))))
                entries.append((change.after.index, style.green("+ " + json(change.after.rule))))
            }
            for rule in diff.added where rule.app == app {
                entries.append((rule.index, style.green("+ " + json(rule.rule))))
            }
            // Stable sort by position keeps removed-before-added at the same index, as diff does.
            lines += entries.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
                .map(\.element.line)
        }
        return lines
    }

    /// A rule as one line of JSON with sorted keys.
    static func json(_ rule: DiffRule) -> String {
        String(decoding: (try? CanonicalJSON.encode(rule)) ?? Data(), as: UTF8.self)
    }

    /// Lint findings, one per line: `warning shadowed_rule (route help): message`.
    static func lint(_ findings: [LintFinding], style: Style) -> [String] {
        findings.map { finding in
            let severity = finding.severity == .error ? style.red("error") : style.yellow("warning")
            let route = finding.route.map { " (route \($0))" } ?? ""
            return "\(severity) \(finding.code)\(route): \(finding.message)"
        }
    }
}
