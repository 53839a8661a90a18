import Foundation

@testable import RegistryAPI
import HTTPServing
@testable import JSONRPC

/// Probes derived from the OpenRPC document: for every constrained field of every method, a value just
/// inside and one just outside each of its rules, sent on top of a minimal valid call.
///
/// Nothing here lists fields or limits: they come from the document, so a rule added there is probed too.
/// Values that must satisfy a pattern are picked from `samples` (checked against the pattern); a pattern no
/// sample satisfies is reported, so a new pattern asks for a new sample instead of being skipped.
struct ContractProbes {
    enum Step: Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): "[\(index)]"
            }
        }
    }

    struct Probe: CustomStringConvertible {
        let method: String
        let path: [Step]
        /// nil: remove the member at `path`.
        let value: Any?
        /// What the refusal must mention (the rule's keyword); nil for a value inside every rule.
        let rule: String?
        /// The field the refusal must name (usually `path`).
        let field: String

        var description: String {
            "\(method) \(field) = \(value.map { jsonText($0) } ?? "<absent>") \(rule.map { "→ refused (\($0))" } ?? "→ accepted")"
        }
    }

    /// Values tried, in order, wherever a string must match a pattern.
    static let samples = [
        "a", "5", "/a", "5.12.0", "m.badoo.com", "ABCDE12345.com.badoo.Badoo", "com.badoo.mobile",
        Array(repeating: "AB", count: 32).joined(separator: ":"), "https://m.badoo.com/", "food", "x_1",
        // An RFC 3339 time in the future, at the longest the pattern admits (nanoseconds and an offset).
        "2099-12-31T23:59:59.123456789+01:00",
        // A webhook id (`wh_` and 16 hex digits).
        "wh_0123456789abcdef",
    ]

    let schemas: [String: Any]
    private(set) var probes: [Probe] = []
    private(set) var baselines: [String: [String: Any]] = [:]
    private(set) var unsatisfiable: [String] = []
    /// Valid values for containers the baseline leaves out, by method and field, so a probe deep inside an
    /// optional member changes only what it probes.
    private(set) var fills: [String: Any] = [:]

    init(document: [String: Any]) throws {
        schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        for method in document["methods"] as? [[String: Any]] ?? [] {
            let name = method["name"] as! String
            var baseline: [String: Any] = [:]
            let params = method["params"] as? [[String: Any]] ?? []
            for param in params where param["required"] as? Bool == true {
                baseline[param["name"] as! String] = sample(param["schema"]!, at: "\(name).\(param["name"]!)")
            }
            baselines[name] = baseline
            probes.append(
                Probe(method: name, path: [.key("zzUnknown")], value: 1, rule: "not a field", field: "zzUnknown"))
            for param in params {
                let key = param["name"] as! String
                if param["required"] as? Bool == true {
                    probes.append(Probe(method: name, path: [.key(key)], value: nil, rule: "is required", field: key))
                }
                walk(param["schema"]!, method: name, path: [.key(key)], otherKinds: [])
            }
        }
    }

    // MARK: schemas

    func resolve(_ schema: Any) -> [String: Any] {
        var node = schema as? [String: Any] ?? [:]
        while let reference = node["$ref"] as? String {
            let target = schemas[String(reference.split(separator: "/").last!)] as? [String: Any] ?? [:]
            node.removeValue(forKey: "$ref")
            node.merge(target) { own, _ in own }
        }
        return node
    }

    func types(_ node: [String: Any]) -> Set<String> {
        if let one = node["type"] as? String { return [one] }
        if let many = node["type"] as? [String] { return Set(many) }
        let branches = (node["anyOf"] as? [Any] ?? []) + (node["oneOf"] as? [Any] ?? [])
        return branches.reduce(into: Set<String>()) { $0.formUnion(types(resolve($1))) }
    }

    // MARK: values

    /// A minimal value valid against `schema`; records the place when no sample fits.
    mutating func sample(_ schema: Any, at place: String) -> Any {
        let node = resolve(schema)
        let branches = (node["anyOf"] as? [Any] ?? []) + (node["oneOf"] as? [Any] ?? [])
        if let branch = branches.first(where: { !types(resolve($0)).subtracting(["null"]).isEmpty }) {
            return sample(branch, at: place)
        }
        let kinds = types(node)
        if let values = node["enum"] as? [Any] { return values[0] }
        if kinds.contains("object") {
            var object: [String: Any] = [:]
            let properties = node["properties"] as? [String: Any] ?? [:]
            for name in node["required"] as? [String] ?? [] {
                object[name] = sample(properties[name] ?? [:], at: "\(place).\(name)")
            }
            return object
        }
        if kinds.contains("array") {
            let count = max(node["minItems"] as? Int ?? 0, 0)
            return (0..<count).map { _ in sample(node["items"] ?? [:], at: "\(place)[]") }
        }
        if kinds.contains("string") {
            let minimum = node["minLength"] as? Int ?? 0
            let maximum = node["maxLength"] as? Int ?? .max
            if let pattern = (node["pattern"] as? String).map({ try! SchemaPattern($0) }) {
                if let seed = Self.samples.first(where: {
                    pattern.matches(Array($0.utf8)) && (minimum...maximum).contains($0.count)
                }) {
                    return seed
                }
            }
            return string(node, length: max(minimum, 1), place: place) ?? "a"
        }
        if kinds.contains("integer") || kinds.contains("number") {
            return node["minimum"] as? Int ?? 1
        }
        if kinds.contains("boolean") { return true }
        return NSNull()
    }

    /// A string of exactly `length` characters that satisfies `node`'s pattern and lengths, or nil.
    mutating func string(_ node: [String: Any], length: Int, place: String) -> String? {
        let pattern = (node["pattern"] as? String).map { try! SchemaPattern($0) }
        let fillers = ["0", "a", "A", "0.", "a.", "A:"]
        for seed in Self.samples where pattern?.matches(Array(seed.utf8)) ?? true {
            for filler in fillers {
                var text = seed
                while text.count < length { text += filler }
                text = String(text.prefix(length))
                var padded = seed
                while padded.count < length { padded = filler + padded }
                // Some patterns refuse a trailing separator: end with the seed's last character instead; numbers
                // padded on the left keep their value (000…5 is the version 5).
                let candidates = [String(padded.suffix(length)), text, String(text.dropLast()) + String(seed.last!)]
                for candidate in candidates where candidate.count == length {
                    if pattern?.matches(Array(candidate.utf8)) ?? true { return candidate }
                }
            }
        }
        unsatisfiable.append("\(place): no sample of \(length) characters matches \(node["pattern"] ?? "")")
        return nil
    }

    // MARK: probes

    /// Adds the probes of every rule of `schema` at `path`, then of its members and items.
    /// - Parameter otherKinds: the types alternatives next to this one accept (a wrong type must miss them too).
    mutating func walk(_ schema: Any, method: String, path: [Step], otherKinds: Set<String>) {
        let node = resolve(schema)
        let field = Self.field(path)
        func add(_ value: Any?, _ rule: String?, at: [Step]? = nil) {
            let at = at ?? path
            probes.append(Probe(method: method, path: at, value: value, rule: rule, field: Self.field(at)))
        }
        let branches = (node["anyOf"] as? [Any] ?? []) + (node["oneOf"] as? [Any] ?? [])
        let all = types(node).union(otherKinds)
        if fills["\(method) \(field)"] == nil, !types(node).isDisjoint(with: ["object", "array"]) {
            fills["\(method) \(field)"] = sample(node, at: "\(method) \(field)")
        }
        for branch in branches { walk(branch, method: method, path: path, otherKinds: all) }
        if node["type"] != nil {
            let wrong: [(String, Any)] = [
                ("integer", 5), ("string", "x"), ("boolean", true), ("array", [Any]()), ("object", [String: Any]()),
            ]
            if let (_, value) = wrong.first(where: {
                !all.contains($0.0) && !(all.contains("number") && $0.0 == "integer")
            }) {
                add(value, "must be")
            }
        }
        if let values = node["enum"] as? [String] {
            for value in values { add(value, nil) }
            add(values[0] + "x", "one of")
        }
        if let maximum = node["maxLength"] as? Int {
            if let inside = string(node, length: maximum, place: "\(method) \(field)") { add(inside, nil) }
            add(String(repeating: "a", count: maximum + 1), "maxLength \(maximum)")
        }
        if let minimum = node["minLength"] as? Int, minimum > 0 {
            if let inside = string(node, length: minimum, place: "\(method) \(field)") { add(inside, nil) }
            add(String(repeating: "a", count: minimum - 1), "minLength \(minimum)")
        }
        if node["pattern"] != nil {
            add("!", "pattern")
        }
        if let minimum = node["minimum"] as? Int {
            add(minimum, nil)
            add(minimum - 1, "minimum \(minimum)")
        }
        if let maximum = node["maximum"] as? Int {
            add(maximum, nil)
            add(maximum + 1, "maximum \(maximum)")
        }
        if types(node).contains("array") {
            let item = sample(node["items"] ?? [:], at: "\(method) \(field)[]")
            if let minimum = node["minItems"] as? Int, minimum > 0 {
                add(Array(repeating: item, count: minimum), nil)
                add(Array(repeating: item, count: minimum - 1), "minItems \(minimum)")
            }
            if let maximum = node["maxItems"] as? Int {
                add(Array(repeating: item, count: maximum + 1), "maxItems \(maximum)")
            }
            if node["uniqueItems"] as? Bool == true {
                add([item, item], "uniqueItems", at: path)
                probes[probes.count - 1] = Probe(
                    method: method, path: path, value: [item, item], rule: "uniqueItems", field: field + "[1]")
            }
            if let items = node["items"] { walk(items, method: method, path: path + [.index(0)], otherKinds: []) }
        }
        if types(node).contains("object") {
            let properties = node["properties"] as? [String: Any] ?? [:]
            if node["additionalProperties"] as? Bool == false {
                add(1, "not a field", at: path + [.key("zzUnknown")])
            }
            for name in node["required"] as? [String] ?? [] {
                add(nil, "is required", at: path + [.key(name)])
            }
            for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
                walk(property, method: method, path: path + [.key(name)], otherKinds: [])
            }
        }
    }

    static func field(_ path: [Step]) -> String {
        var out = ""
        for step in path {
            switch step {
            case .key(let key): out += (out.isEmpty ? "" : ".") + key
            case .index(let index): out += "[\(index)]"
            }
        }
        return out
    }

    // MARK: applying

    /// `baseline` with the probe's value at its path; missing parents are made from samples.
    func params(for probe: Probe) -> [String: Any] {
        var root: Any = baselines[probe.method] ?? [:]
        set(&root, probe.path[...], probe.value, method: probe.method, above: [])
        return root as! [String: Any]
    }

    /// Sets `value` at `path` below `target` (whose own path is `above`), making missing parents from `fills`.
    func set(_ target: inout Any, _ path: ArraySlice<Step>, _ value: Any?, method: String, above: [Step]) {
        guard let step = path.first else { return }
        let rest = path.dropFirst()
        let here = above + [step]
        let made: Any = fills["\(method) \(Self.field(here))"] ?? [String: Any]()
        switch step {
        case .key(let key):
            var object = target as? [String: Any] ?? [:]
            if rest.isEmpty {
                object[key] = value
            } else {
                var child: Any = object[key] ?? made
                set(&child, rest, value, method: method, above: here)
                object[key] = child
            }
            target = object
        case .index(let index):
            var array = target as? [Any] ?? []
            let item = fills["\(method) \(Self.field(above))"].flatMap { ($0 as? [Any])?.first }
            while array.count <= index { array.append(item ?? [String: Any]()) }
            if rest.isEmpty {
                array[index] = value ?? NSNull()
            } else {
                var child = array[index]
                set(&child, rest, value, method: method, above: here)
                array[index] = child
            }
            target = array
        }
    }
}
