import Foundation

/// Small accessors for untyped JSON in tests: `json["a"]["b"]` style without ceremony.
extension Dictionary where Key == String, Value == Any {
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    func array(_ key: String) -> [Any] { self[key] as? [Any] ?? [] }
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
}

/// The path patterns of an AASA document's first app, in order, with `!` marking excludes.
func componentPaths(_ document: [String: Any]) -> [String] {
    let details = (document["applinks"] as? [String: Any])?["details"] as? [[String: Any]] ?? []
    let components = details.first?["components"] as? [[String: Any]] ?? []
    return components.map { component in
        let path = component["/"] as? String ?? (component["?"] != nil ? "?\(jsonText(component["?"]!))" : "*")
        return (component["exclude"] as? Bool == true ? "!" : "") + path
    }
}

func jsonText(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else {
        return "\(value)"
    }
    return String(decoding: data, as: UTF8.self)
}
