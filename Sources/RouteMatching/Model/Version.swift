/// An app version: dotted numerics with one to four components (`5`, `5.12`, `5.12.0`, `5.12.0.4411`),
/// or an Android `versionCode` (a single integer, which is the one-component case).
///
/// Versions compare numerically with missing components counted as zero, so `5.12` == `5.12.0`;
/// equality and hashing follow the same rule. The text as written is kept for display.
public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The components as written, 1–4 of them, each in `0...Int32.max` (so they fit PostgreSQL `int[]`).
    public let components: [Int]

    /// The largest value of one component: versions are stored as PostgreSQL `integer[]`.
    public static let maxComponent = Int(Int32.max)

    /// Parses `text`; anything but 1–4 dot-separated decimal numbers is refused with the reason.
    public init(_ text: String) throws(VersionError) {
        if text.isEmpty { throw VersionError(text: text, reason: "is empty") }
        var parts: [Int] = []
        var current = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if digits == 0 { throw VersionError(text: text, reason: "has an empty component") }
                parts.append(current)
                current = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                current = current * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                if current > Version.maxComponent {
                    throw VersionError(text: text, reason: "has a component above \(Version.maxComponent)")
                }
            } else {
                throw VersionError(text: text, reason: "must be 1 to 4 dot-separated numbers, like 5.12.0")
            }
            if parts.count >= 4 { throw VersionError(text: text, reason: "has more than 4 components") }
        }
        if digits == 0 { throw VersionError(text: text, reason: "has an empty component") }
        parts.append(current)
        self.components = parts
    }

    /// Builds a version from components already known to be valid (1–4, each non-negative).
    public init(components: [Int]) {
        precondition((1...4).contains(components.count) && components.allSatisfy { $0 >= 0 })
        self.components = components
    }

    /// The components with trailing zeros removed: the canonical form for comparison and hashing.
    public var normalized: ArraySlice<Int> {
        var end = components.count
        while end > 1 && components[end - 1] == 0 { end -= 1 }
        return components[0..<end]
    }

    /// The components padded with zeros to four: the form stored in the database, ordered correctly by SQL.
    public var padded: [Int] { components + Array(repeating: 0, count: 4 - components.count) }

    public var description: String { components.map(String.init).joined(separator: ".") }

    /// The one spelling of this version in resource names: three components at least (`5` → `5.0.0`), a
    /// fourth only when it is not zero (`5.12.0.0` → `5.12.0`). Equal versions have equal canonical text,
    /// so `…/releases/0`, `…/releases/0.0` and `…/releases/0.0.0` are one name.
    public var canonical: String {
        let padded = self.padded
        return (padded[3] == 0 ? padded[0..<3] : padded[0..<4]).map(String.init).joined(separator: ".")
    }

    /// Component `index` of the padded form, without building it: comparisons run for every route and live
    /// version on each generation and decision, and `padded` allocates.
    @inline(__always)
    private func component(_ index: Int) -> Int { index < components.count ? components[index] : 0 }

    public static func == (lhs: Version, rhs: Version) -> Bool {
        for index in 0..<4 where lhs.component(index) != rhs.component(index) { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for index in 0..<4 { hasher.combine(component(index)) }
    }

    public static func < (lhs: Version, rhs: Version) -> Bool {
        for index in 0..<4 {
            let (l, r) = (lhs.component(index), rhs.component(index))
            if l != r { return l < r }
        }
        return false
    }
}

extension Version: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            // Android versionCodes arrive as JSON numbers too.
            do { self = try Version(String(number)) } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
            return
        }
        let text = try container.decode(String.self)
        do { self = try Version(text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a text is not a version; `description` is safe to show to the user who typed it.
public struct VersionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was refused.
    public let text: String
    /// What is wrong with it, as the end of a sentence.
    public let reason: String

    public var description: String { "version \"\(text.prefix(40))\" \(reason)" }
}

/// A half-open version range `[since, until)`; `until == nil` means "and every later version".
public struct VersionRange: Sendable, Hashable, Codable {
    /// The first version that handles the route.
    public var since: Version
    /// The first version that no longer handles it, if any.
    public var until: Version?

    public init(since: Version, until: Version? = nil) {
        self.since = since
        self.until = until
    }

    /// True when `since <= version < until`.
    public func contains(_ version: Version) -> Bool {
        version >= since && (until.map { version < $0 } ?? true)
    }

    /// True when the range holds no version at all (`until <= since`).
    public var isEmpty: Bool { until.map { $0 <= since } ?? false }

    public func encode(to encoder: any Encoder) throws {
        // `until: null` is written out so clients see the open end explicitly.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(since, forKey: .since)
        try container.encode(until, forKey: .until)
    }
}
