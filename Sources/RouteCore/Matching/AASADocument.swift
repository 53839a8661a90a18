import Foundation

/// Any `apple-app-site-association` document, parsed for matching the way iOS reads it.
///
/// Reads the modern form (`details` array with `appIDs` and `components`), the legacy array form (`appID`
/// with `paths`, where `NOT ` marks an exclusion), the oldest dictionary form (`details: {appID: {paths}}`),
/// top-level and per-detail `defaults`, and `substitutionVariables`. Other services (`webcredentials`,
/// `appclips`, `activitycontinuation`) do not take part in link matching and are ignored.
public struct AASADocument: Sendable {
    /// One `applinks` detail: the apps it covers and their ordered rules.
    public struct Detail: Sendable {
        /// The app IDs (`TEAMID.bundle.id`) the detail applies to.
        public let appIDs: [String]
        /// The rules with defaults resolved, in order.
        public var rules: [ComponentRule] { ruleSet.rules }
        /// Each rule as it was written, as compact JSON with sorted keys (for people debugging a link).
        public let ruleJSON: [String]
        /// True when the rules came from the legacy `paths` array.
        public let isLegacy: Bool
        /// Where the detail is in the document, e.g. `applinks.details[0]` (or `applinks.details["ID"]` in
        /// the dictionary form).
        public let location: String
        /// The compiled rules.
        public let ruleSet: RuleSet
    }

    /// The `applinks` details, in document order.
    public let details: [Detail]

    /// Parses a document; throws `AASADocumentError` naming the first malformed part.
    public init(json: Data) throws {
        details = try AASAParser.details(from: json)
    }

    /// What iOS decides for `url` opened on a device with `appID` installed, the file having been fetched
    /// from `domain`. When several details list the app, their rules are read one after the other.
    public func evaluate(appID: String, url: LinkURL, domain: String) -> AASAEvaluation {
        guard url.scheme == "https" || url.scheme == "http" else {
            return AASAEvaluation(reason: "not an http or https URL (scheme \(url.scheme))")
        }
        let host = LinkURL.normalizedHost(domain)
        guard url.host == host else {
            return AASAEvaluation(reason: "host \(url.host) differs from the domain \(host)")
        }
        let listing = details.indices.filter { details[$0].appIDs.contains(appID) }
        guard !listing.isEmpty else {
            return AASAEvaluation(reason: "app ID \(appID) not listed in applinks")
        }
        var ruleCount = 0
        for detailIndex in listing {
            let detail = details[detailIndex]
            ruleCount += detail.rules.count
            if let ruleIndex = detail.ruleSet.firstMatch(url) {
                let rule = detail.rules[ruleIndex]
                return AASAEvaluation(
                    outcome: rule.exclude ? .exclude : .match, detailIndex: detailIndex, ruleIndex: ruleIndex,
                    rule: rule, ruleJSON: detail.ruleJSON[ruleIndex],
                    ruleLocation: "\(detail.location).\(detail.isLegacy ? "paths" : "components")[\(ruleIndex)]",
                    reason: rule.exclude ? "an exclude rule matched" : "a rule matched")
            }
        }
        return AASAEvaluation(reason: "no rule matched (\(ruleCount) rule\(ruleCount == 1 ? "" : "s") for the app)")
    }
}

/// The answer of `AASADocument.evaluate`: the outcome, and which rule decided it or why nothing did.
public struct AASAEvaluation: Sendable, Hashable {
    /// `match`, `exclude` or `noMatch`.
    public var outcome: MatchOutcome
    /// Index of the deciding detail in `applinks.details` (nil when nothing matched).
    public var detailIndex: Int?
    /// Index of the deciding rule within its detail's `components` (or `paths`).
    public var ruleIndex: Int?
    /// The deciding rule with defaults resolved.
    public var rule: ComponentRule?
    /// The deciding rule as written in the document, as compact JSON.
    public var ruleJSON: String?
    /// Where the deciding rule is, e.g. `applinks.details[0].components[3]`.
    public var ruleLocation: String?
    /// A sentence saying why: which kind of rule matched, or why none did.
    public var reason: String

    public init(
        outcome: MatchOutcome = .noMatch, detailIndex: Int? = nil, ruleIndex: Int? = nil, rule: ComponentRule? = nil,
        ruleJSON: String? = nil, ruleLocation: String? = nil, reason: String
    ) {
        self.outcome = outcome
        self.detailIndex = detailIndex
        self.ruleIndex = ruleIndex
        self.rule = rule
        self.ruleJSON = ruleJSON
        self.ruleLocation = ruleLocation
        self.reason = reason
    }
}

/// A document that is not a usable AASA file; `message` names the offending part (never file paths).
public struct AASADocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `applinks.details[0].components[2]["/"] is not a string`.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
