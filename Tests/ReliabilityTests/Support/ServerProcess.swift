import Foundation
import ProcessSpawn

#if canImport(Glibc)
    import Glibc
#endif

/// The real `routereg serve` binary as a child process on 127.0.0.1:0, for faults a test inflicts from
/// outside: SIGKILL at any moment, SIGTERM under load.
final class ServerProcess: Sendable {
    static let adminToken = "reliability-admin-secret"

    /// `http://127.0.0.1:PORT`, from the line the server prints when it listens.
    let baseURL: URL
    let pid: Int32
    private let process: SpawnedProcess
    private let stderrFile: URL

    private init(baseURL: URL, process: SpawnedProcess, stderrFile: URL) {
        self.baseURL = baseURL
        self.process = process
        self.pid = process.pid
        self.stderrFile = stderrFile
    }

    /// Starts `routereg serve` against `databaseURL` with `dataDirectory` (snapshot file) and waits until it
    /// prints its port (at most 90 s).
    static func start(databaseURL: String, dataDirectory: URL, threads: Int = 2) async throws -> ServerProcess {
        guard let binary = Products.executable("routereg") else {
            throw ReliabilityError("routereg is not built (swift build --build-tests builds it)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["ROUTEREG_ADMIN_TOKEN"] = adminToken
        environment.removeValue(forKey: "DATABASE_URL")
        // Both streams go to files, polled below (never a pipe read through a dispatch source).
        let scratch = FileManager.default.temporaryDirectory
        let stdoutFile = scratch.appendingPathComponent("reliability-serve-\(UUID()).out")
        let stderrFile = scratch.appendingPathComponent("reliability-serve-\(UUID()).err")
        defer { try? FileManager.default.removeItem(at: stdoutFile) }
        let process = try Spawn(
            binary.path,
            [
                "serve", "--listen", "127.0.0.1:0", "--database-url", databaseURL, "--data-dir", dataDirectory.path,
                "--no-delivery-watch",
                "--threads", String(threads), "--quiet",
            ],
            environment: environment, standardOutput: .file(stdoutFile.path), standardError: .file(stderrFile.path)
        ).start()

        // Generous: the whole suite shares two cores, and once a start (migrations already applied) missed a
        // 30 s deadline while every other suite was running.
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n"),
                let url = URL(string: String(text[range.upperBound..<end]))
            {
                return ServerProcess(baseURL: url, process: process, stderrFile: stderrFile)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await process.terminate(SIGKILL, grace: .seconds(10))
        let log = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        throw ReliabilityError("routereg serve did not start: \(log.suffix(2000))")
    }

    /// Sends `signal` to the server.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the process to exit and returns its status (128 + signal when killed).
    func waitForExit() async -> Int32 {
        // Bounded: a server that ignores its stop signal for ten minutes has failed the test anyway.
        if let status = await process.exit(timeout: .seconds(600)) { return status }
        return await process.terminate(SIGKILL, grace: .seconds(10))
    }

    /// SIGKILL, then waits until it is gone.
    func killHard() async -> Int32 {
        send(SIGKILL)
        return await waitForExit()
    }

    /// What the server wrote on stderr so far (for failure messages).
    var standardError: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Makes sure the child is gone (cleanup for failed tests).
    func ensureStopped() async {
        if process.isRunning { _ = await killHard() }
        try? FileManager.default.removeItem(at: stderrFile)
    }
}

/// A failure of the test machinery itself, with a message saying what.
struct ReliabilityError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
