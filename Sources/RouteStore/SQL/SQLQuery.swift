/// A SQL statement and its bound parameters, built by string interpolation where every interpolated value
/// becomes a `$n` placeholder with a bound parameter (postgres-nio's `PostgresQuery` style).
///
/// Values never become part of the SQL text, so injection is impossible by construction:
///
///     let query: SQLQuery = "SELECT * FROM apps WHERE id = \(id)"   // sends "... WHERE id = $1", ["badoo"]
///
/// The only way to put text into the statement itself is `\(unsafeRaw: ...)`, for identifiers the code
/// controls (never for input). Queries compose: interpolating a `SQLQuery` renumbers its placeholders.
public struct SQLQuery: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The statement split at its placeholders: `fragments.count == binds.count + 1`.
    private var fragments: [String]
    /// The bound values in text format (nil is SQL NULL), one per placeholder, in order.
    public private(set) var binds: [String?]

    public init(stringLiteral value: StaticString) {
        fragments = ["\(value)"]
        binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        fragments = stringInterpolation.fragments
        binds = stringInterpolation.binds
    }

    /// The statement text with `$1`, `$2`… in place of the values.
    public var sql: String {
        var text = fragments[0]
        for index in binds.indices {
            text += "$\(index + 1)"
            text += fragments[index + 1]
        }
        return text
    }

    /// The statement only: values are never part of a description, so logging one leaks nothing.
    public var description: String { sql }

    /// Appends another query (its placeholders renumbered after this one's).
    public mutating func append(_ other: SQLQuery) {
        fragments[fragments.count - 1] += other.fragments[0]
        fragments.append(contentsOf: other.fragments.dropFirst())
        binds.append(contentsOf: other.binds)
    }

    /// Joins queries with a separator that the code controls (`", "`, `" AND "`).
    public static func joined(_ parts: [SQLQuery], separator: StaticString) -> SQLQuery {
        var result: SQLQuery = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(SQLQuery(stringLiteral: separator)) }
            result.append(part)
        }
        return result
    }

    /// Collects literal SQL and placeholders while Swift evaluates an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var fragments: [String] = [""]
        fileprivate var binds: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            fragments[fragments.count - 1] += "\(literal)"
        }

        /// A value: becomes the next `$n`.
        public mutating func appendInterpolation(_ value: some SQLEncodable) {
            binds.append(value.sqlText)
            fragments.append("")
        }

        /// An optional value: NULL when nil.
        public mutating func appendInterpolation(_ value: (some SQLEncodable)?) {
            binds.append(value?.sqlText)
            fragments.append("")
        }

        /// A nested query, renumbered in place.
        public mutating func appendInterpolation(_ query: SQLQuery) {
            fragments[fragments.count - 1] += query.fragments[0]
            fragments.append(contentsOf: query.fragments.dropFirst())
            binds.append(contentsOf: query.binds)
        }

        /// Text pasted into the statement as is: only for identifiers and keywords the code controls.
        public mutating func appendInterpolation(unsafeRaw text: String) {
            fragments[fragments.count - 1] += text
        }
    }
}
