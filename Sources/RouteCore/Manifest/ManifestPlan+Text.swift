import Foundation

extension ManifestPlan {
    /// The plan for people, one line per change (`+ route lookalikes /l/a/* (ios 5.12.0+)`,
    /// `~ route profile: since ios 5.0 → 5.1`, `- route old`), then the resources left alone.
    public var lines: [String] {
        var lines = changes.map(\.line)
        for resource in notInManifest {
            let why: String
            switch (resource.kind, resource.managed) {
            case (.domain, _): why = "kept: a manifest never removes a domain, other apps may share it"
            case (_, false?): why = "kept: not managed by a manifest, so a prune keeps it too"
            default: why = "kept; only a prune removes it"
            }
            lines.append("  \(resource.kind.rawValue) \(resource.id): not in manifest (\(why))")
        }
        return lines
    }

    /// The rules live versions would gain or lose, under a heading; empty when none would.
    public var liveLinkLines: [String] {
        guard let liveLinks, !liveLinks.isEmpty else { return [] }
        return ["Live versions would gain (+) or lose (-) these rules:"] + liveLinks.flatMap(\.lines)
    }

    /// `Plan: 1 to add, 1 to change, 0 to move, 0 to remove.` or `No changes.`
    public var summaryLine: String {
        guard hasChanges else { return "No changes: the registry matches the manifest." }
        func count(_ action: Change.Action) -> Int { changes.filter { $0.action == action }.count }
        return "Plan: \(count(.add)) to add, \(count(.change)) to change, \(count(.move)) to move, "
            + "\(count(.remove)) to remove."
    }
}

extension ManifestPlan.Change {
    /// One line for people.
    public var line: String {
        let subject = "\(kind.rawValue) \(id)"
        switch action {
        case .add: return "+ \(subject)" + (summary.map { " \($0)" } ?? "")
        case .remove: return "- \(subject)"
        case .move: return "~ \(subject): moved " + (before.map { "before \($0)" } ?? "to the end")
        case .change: return "~ \(subject): " + fields.map(\.text).joined(separator: "; ")
        }
    }
}

extension ManifestPlan.FieldChange {
    /// `since ios 5.0 → 5.1`, `ios added (5.0+)`, or `field old → new` with JSON values.
    public var text: String {
        let parts = field.split(separator: ".").map(String.init)
        if parts.count == 3, parts[0] == "platforms" {
            return "\(parts[2]) \(parts[1]) \(Self.show(from)) → \(Self.show(to))"
        }
        if parts.count == 2, parts[0] == "platforms" {
            if to == nil { return "\(parts[1]) removed (was \(Self.range(from)))" }
            if from == nil { return "\(parts[1]) added (\(Self.range(to)))" }
        }
        return "\(field) \(Self.show(from)) → \(Self.show(to))"
    }

    /// A version range given as JSON (`{"since": "5.0"}`) as people read it: `5.0+`.
    private static func range(_ value: JSONValue?) -> String {
        guard let since = value?["since"]?.stringValue else { return show(value) }
        if let until = value?["until"]?.stringValue { return "\(since)–\(until)" }
        return "\(since)+"
    }

    /// A value in a line: strings bare, other JSON compact, `(none)` when absent.
    private static func show(_ value: JSONValue?) -> String {
        guard let value else { return "(none)" }
        if let text = value.stringValue { return text }
        return value.compactText
    }
}

extension JSONValue {
    /// Compact JSON text with sorted members, for plan lines.
    public var compactText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            return value.rounded() == value && abs(value) < 9.0e15 ? String(Int64(value)) : String(value)
        case .string(let value):
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .array(let items): return "[" + items.map(\.compactText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!.compactText)" }.joined(separator: ",")
                + "}"
        }
    }
}
