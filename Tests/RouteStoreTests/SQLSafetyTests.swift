import Foundation
import RouteStore
import Testing

/// SQL is never built from values: `SQLQuery` only takes string literals and bound parameters, so the only
/// ways around it are `unsafeRaw:`, `execute(script:)` and calling libpq directly. This suite pins every
/// use of those in Sources/ to a reviewed list.
@Suite("No SQL built from values")
struct SQLSafetyTests {
    static let sources = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// (file, line) of every line of Sources/ containing `needle`, paths relative to Sources/.
    static func uses(of needle: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.components(separatedBy: "\n").enumerated() where line.contains(needle) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("///") || code.hasPrefix("//") { continue }
                found.append("\(path):\(index + 1): \(code)")
            }
        }
        return found.sorted()
    }

    @Test func aQueryBindsEveryInterpolatedValue() {
        let hostile = "x'); DROP TABLE apps; --"
        let query: SQLQuery = "SELECT * FROM apps WHERE id = \(hostile) AND etag = \(7)"
        #expect(query.sql == "SELECT * FROM apps WHERE id = $1 AND etag = $2")
        #expect(query.binds == [hostile, "7"])
        #expect(!query.description.contains("DROP"))
    }

    /// Statements, and the store's query types and entry points: what only RouteStore may write or call.
    static let sqlOutsideTheStore = [
        #"\bSELECT\s"#, #"\bINSERT\s+INTO\b"#, #"\bUPDATE\s+\w+\s+SET\b"#, #"\bDELETE\s+FROM\b"#,
        #"\b(ALTER|CREATE|DROP)\s+(SYSTEM|TABLE|INDEX|DATABASE|SCHEMA|ROLE)\b"#, #"\bTRUNCATE\s"#,
        #"\bSQL(Query|Rows|Row)\b"#, #"\.query\(\s*(prepared:|"|$)"#,
        #"execute\(script:"#, #"\.withConnection\b"#, #"\.database\.(withConnection|openConnections)\b"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// Every module but RouteStore reaches the database through the store's repository and store methods:
    /// one owner for the schema, so a change to a table is a change to RouteStore alone.
    @Test func onlyRouteStoreWritesSQL() throws {
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.sources.path))
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("RouteStore/") else { continue }
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                let range = NSRange(code.startIndex..., in: code)
                if Self.sqlOutsideTheStore.contains(where: { $0.firstMatch(in: code, range: range) != nil }) {
                    found.append("\(path):\(index + 1): \(code)")
                }
            }
        }
        #expect(found == [], "SQL outside RouteStore:\n\(found.joined(separator: "\n"))")
    }

    /// The scan above finds what it looks for (a scan that matches nothing would pass on anything).
    @Test(arguments: [
        "let n = try tx.query(\"SELECT count(*) AS n FROM routes\")", "try tx.query(", "FROM (SELECT 1) AS one",
        "try connection.execute(script: \"ALTER SYSTEM SET primary_conninfo = ''\")",
        "service.store.database.openConnections", "static func stateQuery() -> SQLQuery {",
        "UPDATE routes SET etag = etag + 1", "DELETE FROM tokens",
    ])
    func theSQLScanRecognizesSQL(line: String) {
        let range = NSRange(line.startIndex..., in: line)
        #expect(Self.sqlOutsideTheStore.contains { $0.firstMatch(in: line, range: range) != nil })
    }

    @Test func rawSQLAppearsOnlyWhereReviewed() throws {
        // LISTEN takes an identifier; the channel name is a constant of the code, quoted.
        let raw = try Self.uses(of: "unsafeRaw:").filter { !$0.hasPrefix("RouteStore/SQL/SQLQuery.swift") }
        #expect(raw.map { $0.components(separatedBy: ":")[0] } == ["RouteStore/ChangeListener.swift"])
    }

    @Test func scriptsAreLiteralsOrMigrationFiles() throws {
        for use in try Self.uses(of: "execute(script:") {
            guard
                let argument = use.components(separatedBy: "execute(script:").last?.trimmingCharacters(in: .whitespaces)
            else { continue }
            let allowed =
                argument.hasPrefix("\"") || argument.hasPrefix("migration.sql") || use.contains("func execute(")
            #expect(allowed, "\(use)")
        }
    }

    @Test func libpqExecutionStaysInTheConnectionLayer() throws {
        let direct = try Self.uses(of: "PQexec").map { $0.components(separatedBy: ":")[0] }
        // Connection.swift is the query layer; PostgresServerAdmin creates/drops databases with quoted identifiers.
        #expect(
            Set(direct).isSubset(of: ["RouteStore/Connection.swift", "RouteStore/Embedded/PostgresServerAdmin.swift"]))
    }
}
