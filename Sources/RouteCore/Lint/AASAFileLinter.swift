import Foundation
import JSONBytes

/// Lint for any apple-app-site-association file (one a team wrote by hand, or found on a site), for
/// `routereg aasa lint`: what makes iOS ignore the file, the shapes Apple documents no behaviour for, and rules
/// that can never decide.
///
/// Where iOS's behaviour is unclear, `aasa check` and `aasa import` take one reading (said in each message)
/// and the finding says what to write instead, so the file means the same thing everywhere.
public enum AASAFileLinter {
    /// Every component key Apple documents.
    static let componentKeys: Set<String> = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    /// Findings for `data`, in document order; `error` findings mean iOS (or RouteRegistry) cannot use the file.
    public static func lint(_ data: Data) -> [LintFinding] {
        do {
            try StrictJSON.validate(data)
        } catch {
            return [
                finding(
                    .error, LintCode.invalidJSON,
                    "not valid JSON: \(error); iOS ignores the whole file, so every universal link of the domain "
                        + "opens in the browser"
                )
            ]
        }
        var findings: [LintFinding] = []
        if data.count > DocumentLinter.sizeLimit * 9 / 10 {
            findings.append(
                finding(
                    .warning, LintCode.sizeNearLimit,
                    "the file is \(data.count) bytes; iOS refuses files over \(DocumentLinter.sizeLimit) bytes"))
        }
        let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        if let applinks = (root as? [String: Any])?["applinks"] as? [String: Any],
            let details = applinks["details"] as? [Any]
        {
            for (index, value) in details.enumerated() {
                guard let detail = value as? [String: Any] else { continue }
                findings += shapes(detail, place: "applinks.details[\(index)]")
            }
        }
        let document: AASADocument
        do {
            document = try AASADocument(json: data)
        } catch let problem as AASADocumentError {
            findings.append(
                finding(
                    .error, LintCode.unusableDocument,
                    "\(problem.message): `routereg aasa check` and `aasa import` refuse the file\(advice(problem.message))"
                ))
            return findings
        } catch {
            return findings
        }
        for detail in document.details { findings += unreachable(detail) }
        findings += overshadowedDetails(document.details)
        return findings
    }

    /// What to write instead, for refusals whose fix is not obvious from the message.
    private static func advice(_ message: String) -> String {
        message.hasSuffix(".appID is not a string")
            ? " (Apple documents a single app ID string in appID; list several apps in appIDs)" : ""
    }

    /// Shapes of one detail that Apple documents no behaviour for.
    private static func shapes(_ detail: [String: Any], place: String) -> [LintFinding] {
        var findings: [LintFinding] = []
        if detail["appIDs"] != nil, detail["appID"] != nil {
            findings.append(
                finding(
                    .warning, LintCode.ambiguousShape,
                    "\(place) has both appIDs and appID: RouteRegistry reads the apps of both; keep only appIDs"))
        }
        if detail["paths"] != nil, detail["components"] != nil {
            findings.append(
                finding(
                    .warning, LintCode.ambiguousShape,
                    "\(place) has both paths and components: iOS 13 and later (and RouteRegistry) read only "
                        + "components, older iOS only paths; keep one"))
        }
        guard let components = detail["components"] as? [Any] else { return findings }
        for (index, value) in components.enumerated() {
            guard let component = value as? [String: Any] else { continue }
            let rulePlace = "\(place).components[\(index)]"
            for key in component.keys.sorted() where !componentKeys.contains(key) {
                findings.append(
                    finding(.warning, LintCode.unknownKey, "\(rulePlace) has key \"\(key)\", which iOS ignores"))
            }
            if let path = component["/"] as? String, !path.isEmpty, !path.hasPrefix("/") {
                findings.append(
                    finding(
                        .warning, LintCode.pathWithoutSlash,
                        "\(rulePlace)[\"/\"] \(AASAParser.compactJSON(path)) does not start with \"/\": RouteRegistry "
                            + "reads it as \(AASAParser.compactJSON("/" + path)); write that, as Apple's examples do"))
            }
            if let query = component["?"], !(query is String),
                !((query as? [String: Any])?.values.allSatisfy { $0 is String } ?? false)
            {
                findings.append(
                    finding(
                        .warning, LintCode.ignoredQuery,
                        "\(rulePlace)[\"?\"] is neither a string nor a dictionary of strings: iOS ignores it, so the "
                            + "rule matches any query"))
            }
        }
        return findings
    }

    /// Rules an earlier rule of the same detail matches every URL of: repeated, or shadowed.
    private static func unreachable(_ detail: AASADocument.Detail) -> [LintFinding] {
        let patterns = detail.rules.map(ResolvedPattern.init)
        let list = detail.isLegacy ? "paths" : "components"
        var coverage = CoverageIndex()
        var findings: [LintFinding] = []
        for j in patterns.indices {
            if let i = coverage.firstCovering(patterns[j], in: patterns) {
                let message =
                    detail.rules[i] == detail.rules[j]
                    ? "\(detail.location).\(list)[\(j)] repeats \(detail.location).\(list)[\(i)]: it can never decide; remove it"
                    : "\(detail.location).\(list)[\(j)] can never decide: \(detail.location).\(list)[\(i)] before "
                        + "it matches every URL it matches"
                let code = detail.rules[i] == detail.rules[j] ? LintCode.duplicateRule : LintCode.shadowedRule
                findings.append(finding(.warning, code, message))
            }
            coverage.insert(patterns[j], at: j)
        }
        return findings
    }

    /// Details an earlier one leaves nothing to: it decides every URL (a rule matching any path, query and
    /// fragment), so for an app both list a later detail never decides (instagram lists its apps again in
    /// legacy entries), and a later detail's other apps only get a link when the earlier apps are not
    /// installed (100ms and beeline-sg: two apps claiming `*`).
    private static func overshadowedDetails(_ details: [AASADocument.Detail]) -> [LintFinding] {
        var findings: [LintFinding] = []
        var decidesAll: [Int] = []
        // Claims every URL: decides every URL, and never by an exclusion (what iOS does with another app's
        // detail for an URL one app excludes is not documented).
        var claimsAll: [Int] = []
        for (j, detail) in details.enumerated() {
            if let i = decidesAll.first(where: { !Set(details[$0].appIDs).isDisjoint(with: detail.appIDs) }) {
                findings.append(
                    finding(
                        .warning, LintCode.shadowedRule,
                        "\(detail.location) never decides for \(details[i].appIDs.filter(detail.appIDs.contains).joined(separator: ", ")): "
                            + "\(details[i].location) before it decides every URL for that app"))
            } else if let i = claimsAll.first {
                findings.append(
                    finding(
                        .warning, LintCode.shadowedRule,
                        "\(detail.location) (\(detail.appIDs.joined(separator: ", "))) gets no link while "
                            + "\(details[i].appIDs.joined(separator: ", ")) is installed: \(details[i].location) claims every URL first"
                    ))
            }
            if let catchAll = detail.rules.firstIndex(where: isCatchAll) {
                decidesAll.append(j)
                if !detail.rules[...catchAll].contains(where: \.exclude) { claimsAll.append(j) }
            }
        }
        return findings
    }

    /// A rule matching every URL: no query or fragment pattern, and a path pattern of stars only (or none).
    private static func isCatchAll(_ rule: ComponentRule) -> Bool {
        guard rule.query == nil, rule.fragment == nil else { return false }
        guard let path = rule.path else { return true }
        let stars = path.drop { $0 == "/" }
        return !stars.isEmpty && stars.allSatisfy { $0 == "*" }
    }

    private static func finding(_ severity: LintFinding.Severity, _ code: String, _ message: String) -> LintFinding {
        LintFinding(severity: severity, code: code, message: message)
    }
}
