import Foundation
import ProcessSpawn

/// Runs the built `routereg` executable as a child process, the way people and CI scripts do.
///
/// The binary is found next to the test bundle (SwiftPM's products directory, which holds both), or at
/// `ROUTEREG_BIN`. Started through `Spawn` (output in files, never a full pipe; killed if the test process dies).
enum BinaryRunner {
    static let executable: URL? = {
        let manager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["ROUTEREG_BIN"],
            manager.isExecutableFile(atPath: explicit)
        {
            return URL(fileURLWithPath: explicit)
        }
        // On Linux the test runner is `<products>/<Package>PackageTests.xctest`; on macOS the bundle's
        // executable sits three levels below the products directory.
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("routereg")
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// A home directory without a config file, so the developer's own config never leaks into a test. It stays
    /// empty, so every run shares one instead of leaving one behind per process.
    static let emptyHome: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-test-home").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `routereg arguments` with only `environment` (plus PATH and an empty HOME) and returns exit status and
    /// output. A run still going after `timeout` is killed and fails the test with what it printed.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(300))
        async throws -> RunResult
    {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let spawn = Spawn(
            executable.path, arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": emptyHome].merging(environment) { $1 })
        let result = try await spawn.run(timeout: timeout)
        return RunResult(status: result.status, stdout: result.standardOutput, stderr: result.standardError)
    }
}
