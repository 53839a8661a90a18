import Foundation

/// RFC 3339 UTC timestamps with milliseconds, as the API writes them.
enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func string(_ date: Date) -> String { style.format(date) }
}
