import Foundation

/// Where the installed PostgreSQL server programs live, and which major version they are.
///
/// Debian keeps them off PATH (`/usr/lib/postgresql/<major>/bin`); `pg_config --bindir` names them when the
/// development package is installed, otherwise the newest versioned directory wins.
public struct PostgresBinaries: Sendable, Hashable {
    /// The directory holding `initdb`, `pg_ctl` and `postgres`.
    public let directory: String

    /// Uses the given directory, after checking that it holds the server programs.
    public init(directory: String) throws {
        for tool in ["initdb", "pg_ctl", "postgres"] {
            let path = (directory as NSString).appendingPathComponent(tool)
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw EmbeddedPostgresError(.binariesNotFound, "\(path) is missing; run scripts/bootstrap")
            }
        }
        self.directory = directory
    }

    /// Finds the installed server: `pg_config --bindir`, else the newest `/usr/lib/postgresql/*/bin`.
    public static func locate() throws -> PostgresBinaries {
        if let fromConfig = pgConfigBinDirectory(), let binaries = try? PostgresBinaries(directory: fromConfig) {
            return binaries
        }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let newestFirst = versions.compactMap { name in Int(name).map { (name, $0) } }.sorted { $0.1 > $1.1 }
        for (name, _) in newestFirst {
            if let binaries = try? PostgresBinaries(directory: "\(root)/\(name)/bin") {
                return binaries
            }
        }
        throw EmbeddedPostgresError(
            .binariesNotFound,
            "no PostgreSQL server found (pg_config --bindir, \(root)/*/bin); run scripts/bootstrap")
    }

    /// The full path of one program in this directory.
    public func path(_ tool: String) -> String { (directory as NSString).appendingPathComponent(tool) }

    /// The major version of these programs (15 for "postgres (PostgreSQL) 15.8").
    public func majorVersion() throws -> Int {
        let output = try ChildProcess(executable: path("postgres"), arguments: ["--version"]).check(
            "postgres --version")
        // The first numeric word: "postgres (PostgreSQL) 15.8 (Debian 15.8-0+deb12u1)".
        let words = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        for word in words where word.first?.isNumber == true {
            if let major = Int(word.prefix(while: { $0.isNumber })) {
                return major
            }
        }
        throw EmbeddedPostgresError(.processFailed, "cannot read the server version from: \(output)")
    }

    private static func pgConfigBinDirectory() -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/pg_config"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let outcome = try? ChildProcess(executable: candidate, arguments: ["--bindir"]).run()
            guard let outcome, outcome.succeeded else { return nil }
            return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }
}
