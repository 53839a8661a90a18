import Foundation
import RouteCore

/// `routereg aasa lint FILE`: what is wrong with an apple-app-site-association file, offline. The companion of
/// `aasa check` (what a file decides) and `aasa import` (adopting it): a file iOS would ignore, shapes Apple
/// documents no behaviour for, and rules that can never decide.
enum AASALint {
    static let spec = CommandSpec(
        ["aasa", "lint"], summary: "say what is wrong with an AASA file (offline)",
        details: """
            Reads the file as iOS would (strict JSON: a trailing comma makes iOS ignore the whole file) and reports,
            one per line, errors (iOS or RouteRegistry cannot use the file) and warnings: both appIDs and appID, both
            paths and components in one details entry, a "/" pattern without a leading slash, a query iOS ignores,
            unknown component keys, repeated rules and rules an earlier rule shadows, and details an earlier catch-all
            detail leaves no link to. Exits 1 when there is an error.
            With --json: the findings as a JSON array of {severity, code, message}.
            """,
        positionals: [PositionalSpec(name: "FILE", summary: "the apple-app-site-association file (- for stdin)")],
        examples: ["aasa lint apple-app-site-association"],
        action: .run(run))

    static func run(_ run: Invocation) throws {
        let file = run.argument(0)
        let data = try readInput(file: file)
        let findings = AASAFileLinter.lint(data)
        if run.json {
            run.print(String(decoding: try CanonicalJSON.encode(findings), as: UTF8.self))
        } else if findings.isEmpty {
            run.print("\(file): no findings")
        } else {
            for line in DiffText.lint(findings, style: run.style) { run.print(line) }
        }
        let errors = findings.filter { $0.severity == .error }.count
        if errors > 0 {
            throw CommandFailure(
                "\(file): \(errors) error\(errors == 1 ? "" : "s"); iOS or RouteRegistry cannot use this file as is")
        }
    }
}
