import Foundation
import JSONBytes

/// Reads the `applinks` section of an AASA document into `AASADocument.Detail`s.
enum AASAParser {
    /// The case and encoding options in force at some level (rule > detail `defaults` > top-level `defaults`).
    private struct Defaults {
        var caseSensitive = true
        var percentEncoded = true

        func overridden(by object: [String: Any], at where_: String) throws -> Defaults {
            var copy = self
            if let value = object["caseSensitive"] { copy.caseSensitive = try bool(value, "\(where_).caseSensitive") }
            if let value = object["percentEncoded"] {
                copy.percentEncoded = try bool(value, "\(where_).percentEncoded")
            }
            return copy
        }
    }

    static func details(from json: Data) throws -> [AASADocument.Detail] {
        // iOS ignores a file that is not strict JSON; Foundation on Linux would read a trailing comma.
        do {
            try StrictJSON.validate(json)
        } catch {
            throw AASADocumentError("not valid JSON: \(error)")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            throw AASADocumentError("not valid JSON")
        }
        guard let document = root as? [String: Any] else {
            throw AASADocumentError("the document is not a JSON object")
        }
        guard let applinksValue = document["applinks"] else { return [] }
        guard let applinks = applinksValue as? [String: Any] else {
            throw AASADocumentError("applinks is not an object")
        }

        var defaults = Defaults()
        if let value = applinks["defaults"] {
            defaults = try defaults.overridden(by: object(value, "applinks.defaults"), at: "applinks.defaults")
        }
        let variables = try substitutionVariables(applinks["substitutionVariables"], "applinks.substitutionVariables")

        switch applinks["details"] {
        case nil:
            return []
        case let list as [Any]:
            return try list.enumerated().map { index, value in
                let place = "applinks.details[\(index)]"
                let entry = try object(value, place)
                var appIDs: [String] = []
                if let ids = entry["appIDs"] { appIDs = try strings(ids, "\(place).appIDs") }
                if let id = entry["appID"] { appIDs.append(try string(id, "\(place).appID")) }
                return try detail(entry, appIDs: appIDs, place: place, defaults: defaults, variables: variables)
            }
        case let dictionary as [String: Any]:
            // The iOS 9 form: app IDs as keys. Sorted so the detail order is stable.
            return try dictionary.keys.sorted().map { appID in
                let place = "applinks.details[\(quoted(appID))]"
                return try detail(
                    object(dictionary[appID]!, place), appIDs: [appID], place: place, defaults: defaults,
                    variables: variables)
            }
        default:
            throw AASADocumentError("applinks.details is neither an array nor an object")
        }
    }

    private static func detail(
        _ entry: [String: Any], appIDs: [String], place: String, defaults: Defaults, variables: [String: [String]]
    ) throws -> AASADocument.Detail {
        var detailDefaults = defaults
        if let value = entry["defaults"] {
            detailDefaults = try defaults.overridden(by: object(value, "\(place).defaults"), at: "\(place).defaults")
        }
        var detailVariables = variables
        if entry["substitutionVariables"] != nil {
            detailVariables.merge(
                try substitutionVariables(entry["substitutionVariables"], "\(place).substitutionVariables")
            ) { $1 }
        }
        var rules: [ComponentRule] = []
        var ruleJSON: [String] = []
        let isLegacy: Bool
        if let value = entry["components"] {
            // iOS 13+ reads `components` and ignores `paths` when both are present.
            isLegacy = false
            guard let list = value as? [Any] else { throw AASADocumentError("\(place).components is not an array") }
            for (index, item) in list.enumerated() {
                let rulePlace = "\(place).components[\(index)]"
                let component = try object(item, rulePlace)
                rules.append(try rule(component, place: rulePlace, defaults: detailDefaults))
                ruleJSON.append(compactJSON(component))
            }
        } else {
            isLegacy = true
            let paths = try entry["paths"].map { try strings($0, "\(place).paths") } ?? []
            for path in paths {
                // Legacy paths predate `defaults`: case-sensitive, compared as written, path only.
                if path.hasPrefix("NOT ") {
                    rules.append(ComponentRule(path: String(path.dropFirst(4)), exclude: true))
                } else {
                    rules.append(ComponentRule(path: path))
                }
                ruleJSON.append(compactJSON(path))
            }
        }
        return AASADocument.Detail(
            appIDs: appIDs, ruleJSON: ruleJSON, isLegacy: isLegacy, location: place,
            ruleSet: RuleSet(rules: rules, substitutionVariables: detailVariables))
    }

    private static func rule(_ component: [String: Any], place: String, defaults: Defaults) throws -> ComponentRule {
        let resolved = try defaults.overridden(by: component, at: place)
        var query: QueryRule?
        switch component["?"] {
        case let text as String:
            query = .string(text)
        case let items as [String: Any]:
            // Apple ignores the whole dictionary when any value is not a string.
            let strings = items.compactMapValues { $0 as? String }
            query = strings.count == items.count ? .items(strings) : nil
        default:
            query = nil
        }
        return ComponentRule(
            path: try component["/"].map { try string($0, "\(place)[\"/\"]") },
            query: query,
            fragment: try component["#"].map { try string($0, "\(place)[\"#\"]") },
            exclude: try component["exclude"].map { try bool($0, "\(place).exclude") } ?? false,
            caseSensitive: resolved.caseSensitive,
            percentEncoded: resolved.percentEncoded)
    }

    private static func substitutionVariables(_ value: Any?, _ place: String) throws -> [String: [String]] {
        guard let value else { return [:] }
        let table = try object(value, place)
        var result: [String: [String]] = [:]
        for (name, values) in table { result[name] = try strings(values, "\(place)[\(quoted(name))]") }
        return result
    }

    private static func object(_ value: Any, _ place: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw AASADocumentError("\(place) is not an object") }
        return object
    }

    private static func string(_ value: Any, _ place: String) throws -> String {
        guard let text = value as? String else { throw AASADocumentError("\(place) is not a string") }
        return text
    }

    private static func strings(_ value: Any, _ place: String) throws -> [String] {
        guard let list = value as? [Any] else { throw AASADocumentError("\(place) is not an array of strings") }
        return try list.enumerated().map { try string($1, "\(place)[\($0)]") }
    }

    private static func bool(_ value: Any, _ place: String) throws -> Bool {
        guard isBoolean(value), let flag = value as? Bool else {
            throw AASADocumentError("\(place) is not true or false")
        }
        return flag
    }

    /// The class JSONSerialization gives JSON `true`/`false`: numbers bridge to `Bool` too, so `1` would
    /// otherwise pass for `true`.
    private static let booleanClass: ObjectIdentifier? = {
        guard let data = try? JSONSerialization.jsonObject(with: Data("[true]".utf8)) as? [Any], let first = data.first
        else { return nil }
        return ObjectIdentifier(type(of: first))
    }()

    private static func isBoolean(_ value: Any) -> Bool {
        value is Bool && ObjectIdentifier(type(of: value)) == booleanClass
    }

    private static func quoted(_ text: String) -> String { compactJSON(text) }

    /// Compact JSON with keys sorted by their UTF-8 bytes and slashes unescaped, so rules print as people
    /// wrote them and the same rule always prints the same way.
    static func compactJSON(_ value: Any) -> String {
        switch value {
        case let text as String:
            return quotedJSON(text)
        case let object as [String: Any]:
            return "{"
                + object.keys.sorted().map { quotedJSON($0) + ":" + compactJSON(object[$0]!) }.joined(separator: ",")
                + "}"
        case let array as [Any]:
            return "[" + array.map(compactJSON).joined(separator: ",") + "]"
        case is NSNull:
            return "null"
        default:
            if isBoolean(value), let flag = value as? Bool { return flag ? "true" : "false" }
            if let number = value as? NSNumber { return number.stringValue }
            return "null"
        }
    }

    private static func quotedJSON(_ text: String) -> String {
        var out: [UInt8] = []
        JSONString.append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
