import Foundation

/// Rule-level difference between two generated documents of a host (for `Associations.Diff`).
///
/// Rules are compared per app (iOS app ID, or Android package name) and identified by the route their
/// comment names (the marker by its own comment); a rule with the same identity but different content is
/// `changed`. Moves without content changes are not reported.
public struct DocumentDiff: Sendable, Hashable, Codable {
    /// A rule present on one side only.
    public struct Rule: Sendable, Hashable, Codable {
        /// The iOS app ID or Android package name the rule belongs to.
        public var app: String
        /// Its position in that app's rule list.
        public var index: Int
        /// The rule as written (an AASA component or an assetlinks dynamic component).
        public var rule: DiffRule

        public init(app: String, index: Int, rule: DiffRule) {
            self.app = app
            self.index = index
            self.rule = rule
        }
    }

    /// A rule present on both sides with different content.
    public struct Change: Sendable, Hashable, Codable {
        /// The rule in the older document.
        public var before: Rule
        /// The rule in the newer document.
        public var after: Rule

        public init(before: Rule, after: Rule) {
            self.before = before
            self.after = after
        }
    }

    /// Rules only the newer document has.
    public var added: [Rule]
    /// Rules only the older document has.
    public var removed: [Rule]
    /// Rules of the same route whose content differs.
    public var changed: [Change]

    /// True when nothing differs.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// The difference between two `apple-app-site-association` documents.
    public init(from before: AASAFile, to after: AASAFile) {
        self.init(before: Self.rules(before), after: Self.rules(after))
    }

    /// The difference between two `assetlinks.json` documents.
    public init(from before: [AssetLinksStatement], to after: [AssetLinksStatement]) {
        self.init(before: Self.rules(before), after: Self.rules(after))
    }

    /// The difference between two documents' bytes, of the kind `assetlinks` says.
    public init(from before: Data, to after: Data, assetlinks: Bool = false) throws {
        let decoder = JSONDecoder()
        if assetlinks {
            self.init(
                from: try decoder.decode([AssetLinksStatement].self, from: before),
                to: try decoder.decode([AssetLinksStatement].self, from: after))
        } else {
            self.init(
                from: try decoder.decode(AASAFile.self, from: before),
                to: try decoder.decode(AASAFile.self, from: after))
        }
    }

    private init(before: [(key: String, rule: Rule)], after: [(key: String, rule: Rule)]) {
        let old = Dictionary(before.map { ($0.key, $0.rule) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.key, $0.rule) }, uniquingKeysWith: { first, _ in first })
        added = after.filter { old[$0.key] == nil }.map(\.rule)
        removed = before.filter { new[$0.key] == nil }.map(\.rule)
        changed = after.compactMap { entry in
            guard let previous = old[entry.key], previous.rule != entry.rule.rule else { return nil }
            return Change(before: previous, after: entry.rule)
        }
    }

    /// Keys are `app|identity|occurrence`, so repeated identities pair up in order.
    private static func keyed(_ app: String, _ rules: [(identity: String, rule: DiffRule)]) -> [(
        key: String, rule: Rule
    )] {
        var seen: [String: Int] = [:]
        return rules.enumerated().map { index, entry in
            let occurrence = seen[entry.identity, default: 0]
            seen[entry.identity] = occurrence + 1
            return ("\(app)|\(entry.identity)|\(occurrence)", Rule(app: app, index: index, rule: entry.rule))
        }
    }

    private static func rules(_ file: AASAFile) -> [(key: String, rule: Rule)] {
        var out: [(key: String, rule: Rule)] = []
        for detail in file.applinks.details {
            let components = (detail.components ?? []).map { (identity(comment: $0.comment, $0), DiffRule.aasa($0)) }
            for appID in detail.appIDs ?? [] { out += keyed(appID, components) }
            if let appID = detail.appID, let paths = detail.paths {
                out += keyed("legacy " + appID, paths.map { ($0, DiffRule.path($0)) })
            }
        }
        return out
    }

    private static func rules(_ statements: [AssetLinksStatement]) -> [(key: String, rule: Rule)] {
        var out: [(key: String, rule: Rule)] = []
        for statement in statements {
            let components = statement.relationExtensions?.values.flatMap(\.dynamicAppLinkComponents) ?? []
            out += keyed(
                statement.target.packageName,
                components.map { (identity(comment: $0.comments, $0), DiffRule.android($0)) })
        }
        return out
    }

    private static func identity<T: Encodable>(comment: String?, _ rule: T) -> String {
        if let comment { return "comment:" + comment }
        let bytes = (try? CanonicalJSON.encode(rule)) ?? Data()
        return "rule:" + String(decoding: bytes, as: UTF8.self)
    }
}

/// One rule in a diff: it encodes as the rule itself (an AASA component, a legacy path string, or an
/// assetlinks dynamic component).
public enum DiffRule: Sendable, Hashable, Codable {
    case aasa(AASAComponent)
    case path(String)
    case android(AssetLinksStatement.Component)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .path(text)
        } else {
            self = .aasa(try container.decode(AASAComponent.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .aasa(let component): try container.encode(component)
        case .path(let path): try container.encode(path)
        case .android(let component): try container.encode(component)
        }
    }
}
