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
    /// `segments` as bytes, for matching.
    private let byteSegments: [ByteSegment]

    private enum ByteSegment: Sendable {
        case literal([UInt8])
        case parameter(suffix: [UInt8])
    }
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
        byteSegments = segments.map { segment in
            switch segment {
            case .literal(let text): .literal(Array(text.utf8))
            case .parameter(_, let suffix): .parameter(suffix: Array(suffix.utf8))
            }
        }
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

    /// The parameters when `path` matches; nil otherwise. Compares bytes in place: every request with a
    /// path no literal route has tries each pattern, most failing at their first byte. The values are made
    /// only once the whole path matched, so a pattern failing after a parameter (a short link's `/{code}`
    /// tried against `/{code}/qr.svg` first) allocates nothing.
    func match(_ path: String) -> RouteParameters? {
        var path = path
        return path.withUTF8 { bytes -> RouteParameters? in
            guard walk(bytes, value: { _ in }) else { return nil }
            guard !parameterNames.isEmpty else { return RouteParameters.none }
            var values: [String] = []
            values.reserveCapacity(parameterNames.count)
            _ = walk(bytes) { range in
                values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
            }
            return RouteParameters(names: parameterNames, values: values)
        }
    }

    /// Whether `bytes` (a path) matches, passing each parameter's value range to `value` in order.
    @inline(__always)
    private func walk(_ bytes: UnsafeBufferPointer<UInt8>, value: (Range<Int>) -> Void) -> Bool {
        let slash = UInt8(ascii: "/")
        var at = bytes.first == slash ? 1 : 0
        // `/` has no segment; every other path has one more than it has inner slashes.
        var ended = at == bytes.count
        for segment in byteSegments {
            guard !ended else { return false }
            var end = at
            while end < bytes.count && bytes[end] != slash { end += 1 }
            switch segment {
            case .literal(let literal):
                guard end - at == literal.count, literal.elementsEqual(bytes[at..<end]) else { return false }
            case .parameter(let suffix):
                let valueEnd = end - suffix.count
                guard valueEnd >= at, suffix.elementsEqual(bytes[valueEnd..<end]) else { return false }
                value(at..<valueEnd)
            }
            if end == bytes.count { ended = true } else { at = end + 1 }
        }
        return ended || matchesRest
    }

    /// The byte every path this pattern matches has after its leading `/`: the first of a non-empty literal
    /// first segment; nil when paths starting with any byte (or none) may match.
    var firstByte: UInt8? {
        guard case .literal(let text)? = segments.first, let byte = text.utf8.first else { return nil }
        return byte
    }

    /// The byte after `path`'s leading `/` as an index of `Router`'s candidate table: 256 for none.
    static func firstByteIndex(of path: String) -> Int {
        let utf8 = path.utf8
        var index = utf8.startIndex
        if index < utf8.endIndex && utf8[index] == UInt8(ascii: "/") { index = utf8.index(after: index) }
        return index < utf8.endIndex ? Int(utf8[index]) : 256
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
