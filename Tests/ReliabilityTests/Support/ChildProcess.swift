import Foundation

/// Runs built executables of this package as child processes, waiting through the termination handler
/// (never a blocking wait on the cooperative pool), with output in a temporary file so a chatty child can
/// never block on a full pipe.
enum ChildProcess {
    /// The package's root directory (this file is `Tests/ReliabilityTests/Support/ChildProcess.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A product built next to the test bundle (SwiftPM's products directory), or `ROUTEREG_BIN` for
    /// `routereg`.
    static func productExecutable(_ name: String) -> URL? {
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

    /// What a finished child left: exit status (or signal number + 128) and its stdout and stderr together.
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `executable arguments` to completion.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws
        -> Result
    {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("reliability-\(UUID()).out")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let handle = try FileHandle(forWritingTo: outputFile)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                let code = finished.terminationStatus
                continuation.resume(returning: finished.terminationReason == .uncaughtSignal ? 128 + code : code)
            }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return Result(status: status, output: output)
    }
}
