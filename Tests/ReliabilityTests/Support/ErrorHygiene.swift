import Foundation

/// What an error shown to a client must never contain: SQL, database or C library text, file paths,
/// stack traces, bound values of the database layer.
enum ErrorHygiene {
    static let forbidden = [
        "SELECT ", "INSERT ", "UPDATE ", "DELETE FROM", "DROP TABLE", "syntax error", "SQLSTATE", "ERROR:", "postgres",
        "libpq", "PQ", "violates", "constraint", "relation ", "/work/", "/tmp/", "/usr/", ".swift", "Fatal error",
        "Thread ", "0x0000", "Backtrace", "stack",
    ]

    /// The forbidden fragments found in `text` (empty when clean). `allowed` names fragments the client put
    /// in its own request and may legitimately see echoed (a bad id quoted back).
    static func leaks(in text: String, allowed: [String] = []) -> [String] {
        var cleaned = text
        for fragment in allowed where !fragment.isEmpty {
            cleaned = cleaned.replacingOccurrences(of: fragment, with: "", options: .caseInsensitive)
        }
        return forbidden.filter { cleaned.localizedCaseInsensitiveContains($0) }
    }

    /// The forbidden fragments in any string inside a decoded JSON value (an `error` object).
    static func leaks(inJSON value: Any, allowed: [String] = []) -> [String] {
        strings(in: value).flatMap { leaks(in: $0, allowed: allowed) }
    }

    private static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.keys.map { $0 } + object.values.flatMap(strings)
        default: []
        }
    }
}
