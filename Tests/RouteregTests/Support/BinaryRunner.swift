import Foundation

/// Runs the built `routereg` executable as a child process, the way people and CI scripts do.
///
/// The binary is found next to the test bundle (SwiftPM's products directory, which holds both), or at
/// `ROUTEREG_BIN`. Output goes to temporary files rather than pipes so a chatty command can never block
/// on a full pipe, and the exit is awaited through the termination handler rather than a blocking wait.
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

    /// Runs `routereg arguments` with only `environment` (plus PATH and an empty HOME) and returns exit status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let manager = FileManager.default
        let base = manager.temporaryDirectory.appendingPathComponent("routereg-run-\(UUID())")
        let outURL = base.appendingPathExtension("out")
        let errURL = base.appendingPathExtension("err")
        _ = manager.createFile(atPath: outURL.path, contents: nil)
        _ = manager.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? manager.removeItem(at: outURL)
            try? manager.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": emptyHome].merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try out.close()
        try err.close()
        return RunResult(
            status: status, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
