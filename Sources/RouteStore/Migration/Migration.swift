import Foundation

/// One schema change: a SQL file `NNNN_name.sql` from `Schema/migrations/` (shipped as a resource of this
/// module), applied once, in name order.
public struct Migration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_initial`; its order is the order of application.
    public var name: String
    /// The file's SQL (several statements).
    public var sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The line that marks a migration as an expand (ARCHITECTURE.md, "Upgrades: the compatibility rule"): the
    /// previous release's server keeps working on the schema it leaves, so a build that does not know it may
    /// still start on a database where it is applied.
    public static let expandMarker = "-- routereg: expand"

    /// The file has `expandMarker` on a line of its own.
    public var isExpand: Bool {
        sql.split(whereSeparator: \.isNewline).contains { $0.trimmingCharacters(in: .whitespaces) == Self.expandMarker }
    }

    /// The migrations built into this module, in order.
    public static func bundled() throws -> [Migration] {
        guard let directory = Bundle.module.url(forResource: "Migrations", withExtension: nil) else {
            throw StoreError(.migrationFailed, detail: "the Migrations resource is missing from the bundle")
        }
        return try load(from: directory)
    }

    /// The `NNNN_name.sql` files of `directory`, in order; other files are ignored.
    public static func load(from directory: URL) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw StoreError(.migrationFailed, detail: "cannot list \(directory.path): \(error)")
        }
        return try names.filter(isMigrationFileName).sorted().map { file in
            let url = directory.appendingPathComponent(file)
            do {
                let sql = try String(contentsOf: url, encoding: .utf8)
                return Migration(name: String(file.dropLast(4)), sql: sql)
            } catch {
                throw StoreError(.migrationFailed, detail: "cannot read \(url.path): \(error)")
            }
        }
    }

    /// `NNNN_name.sql`: four digits, an underscore, a lower-case name.
    static func isMigrationFileName(_ file: String) -> Bool {
        let scalars = Array(file.unicodeScalars)
        guard file.hasSuffix(".sql"), scalars.count > 9, scalars[4] == "_" else { return false }
        return scalars[0..<4].allSatisfy { ("0"..."9").contains($0) }
            && scalars[5..<(scalars.count - 4)].allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
    }
}
