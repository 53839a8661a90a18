/// A matched route's path parameters (`{app}` of `/canopen/v1/{app}/…`), read by name: the pattern's names
/// and the values cut from the path, with no dictionary to build per request (a route has a few at most).
public struct RouteParameters: Sendable, Equatable {
    /// The names, in the pattern's order (shared with the pattern, not copied).
    let names: [String]
    let values: [String]

    static let none = RouteParameters(names: [], values: [])

    /// The value of parameter `name`; nil when the route has no such parameter.
    public subscript(name: String) -> String? {
        guard let at = names.firstIndex(of: name) else { return nil }
        return values[at]
    }

    /// Every parameter, by name.
    public var all: [String: String] {
        Dictionary(uniqueKeysWithValues: zip(names, values))
    }
}
