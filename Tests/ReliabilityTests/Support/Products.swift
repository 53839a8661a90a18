import Foundation
import ProcessSpawn

/// This package's built executables, and running them to completion through `Spawn` (output in a file,
/// killed with its process group if the test process dies).
enum Products {
    /// The package's root directory (this file is `Tests/ReliabilityTests/Support/Products.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A product built next to the test bundle (SwiftPM's products directory), or `ROUTEREG_BIN` for
    /// `routereg`.
    static func executable(_ name: String) -> URL? {
        let manager = FileManager.default
        if name == "routereg", let explicit = ProcessInfo.processInfo.environment["ROUTEREG_BIN"],
            manager.isExecutableFile(atPath: explicit)
        {
            return URL(fileURLWithPath: explicit)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Runs `executable arguments` to completion (at most `timeout`); stdout and stderr interleaved.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        timeout: Duration = .seconds(600)
    ) async throws -> SpawnResult {
        try await Spawn(executable.path, arguments, environment: environment, standardError: .standardOutput)
            .run(timeout: timeout)
    }
}
