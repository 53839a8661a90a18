/// A route's path pattern, compiled once: literal segments, parameters (`{app}`, `{version}.json`) and a
/// final `*`.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        /// A parameter, with the literal text its segment must end with (`.json`), removed from the value.
        case parameter(name: String, suffix: String)
    }

    let segments: [Segment]
    /// The parameters' names, in order.
    let parameterNames: [String]
    /// A final `*`: the rest of the path, however many segments (none included).
    let matchesRest: Bool

    init(_ pattern: String) {
        var parts = Self.segments(of: pattern)
        matchesRest = parts.last == "*"
        if matchesRest { parts.removeLast() }
        segments = parts.map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            let name = String(part[part.index(after: part.startIndex)..<close])
            return .parameter(name: name, suffix: String(part[part.index(after: close)...]))
        }
        parameterNames = segments.compactMap { if case .parameter(let name, _) = $0 { name } else { nil } }
    }

    /// The path itself when the pattern has no parameter and no `*` (looked up by hash).
    var literalPath: String? {
        guard !matchesRest else { return nil }
        var path = ""
        for segment in segments {
            guard case .literal(let text) = segment else { return nil }
            path += "/" + text
        }
        return path.isEmpty ? "/" : path
    }

    /// The parameters when `path` matches; nil otherwise. Walks the path once, cutting no array of segments.
    func match(_ path: String) -> RouteParameters? {
        var rest = path[...]
        if rest.first == "/" { rest = rest.dropFirst() }
        var values: [Substring] = []
        if !parameterNames.isEmpty { values.reserveCapacity(parameterNames.count) }
        // `/` has no segment; every other path has one more than it has inner slashes.
        var remaining: Substring? = rest.isEmpty ? nil : rest
        for segment in segments {
            guard let text = remaining else { return nil }
            let part: Substring
            if let slash = text.utf8.firstIndex(of: UInt8(ascii: "/")) {
                part = text[..<slash]
                remaining = text[text.index(after: slash)...]
            } else {
                part = text
                remaining = nil
            }
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(_, let suffix):
                guard part.hasSuffix(suffix) else { return nil }
                values.append(part.dropLast(suffix.count))
            }
        }
        guard remaining == nil || matchesRest else { return nil }
        return values.isEmpty ? .none : RouteParameters(names: parameterNames, values: values)
    }

    /// Whether this pattern is tried before `other`: more literal segments first, then longer, then without
    /// a `*`.
    func precedes(_ other: RoutePattern) -> Bool {
        let mine = segments.count(where: { if case .literal = $0 { true } else { false } })
        let theirs = other.segments.count(where: { if case .literal = $0 { true } else { false } })
        if mine != theirs { return mine > theirs }
        if segments.count != other.segments.count { return segments.count > other.segments.count }
        return !matchesRest && other.matchesRest
    }

    /// A path's segments: `/a/b` → `["a", "b"]`; `/` → `[]`. Empty segments inside are kept (`/a//b`).
    static func segments(of path: String) -> [Substring] {
        var trimmed = path[...]
        if trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        if trimmed.isEmpty { return [] }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}
