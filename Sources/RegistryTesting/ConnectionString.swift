import Foundation

/// Edits libpq connection strings, which come in two spellings: URIs (`postgresql://user@host:5432/db?…`)
/// and keyword/value lists (`host=… dbname=…`).
enum ConnectionString {
    /// The same connection, but to database `name`.
    static func replacingDatabase(in connection: String, with name: String) -> String {
        guard let schemeEnd = connection.range(of: "://"),
            connection.hasPrefix("postgresql://") || connection.hasPrefix("postgres://")
        else {
            // Keyword/value form: libpq lets a later keyword override an earlier one.
            return connection + " dbname='" + name.replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        let afterScheme = connection[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? connection.endIndex
        let query = connection[authorityEnd...].firstIndex(of: "?").map { connection[$0...] } ?? ""
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        return connection[..<authorityEnd] + "/" + encoded + query
    }
}
