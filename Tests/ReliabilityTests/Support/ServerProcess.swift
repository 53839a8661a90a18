import Foundation
import Synchronization

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
    private let process: Process
    private let exit: ExitState
    private let stderrFile: URL

    /// The exit status once known, and who waits for it.
    final class ExitState: Sendable {
        let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

        func finished(_ status: Int32) {
            let waiters = state.withLock { state in
                state.status = status
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume(returning: status) }
        }

        var status: Int32? { state.withLock { $0.status } }
    }

    private init(baseURL: URL, process: Process, exit: ExitState, stderrFile: URL) {
        self.baseURL = baseURL
        self.process = process
        self.pid = process.processIdentifier
        self.exit = exit
        self.stderrFile = stderrFile
    }

    /// Starts `routereg serve` against `databaseURL` with `dataDirectory` (snapshot file) and waits until it
    /// prints its port (at most 90 s).
    static func start(databaseURL: String, dataDirectory: URL, threads: Int = 2) async throws -> ServerProcess {
        guard let binary = ChildProcess.productExecutable("routereg") else {
            throw ReliabilityError("routereg is not built (swift build --build-tests builds it)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--listen", "127.0.0.1:0", "--database-url", databaseURL, "--data-dir", dataDirectory.path,
            "--threads", String(threads), "--quiet",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["ROUTEREG_ADMIN_TOKEN"] = adminToken
        environment.removeValue(forKey: "DATABASE_URL")
        process.environment = environment
        // Both streams go to files, polled below. Not a Pipe with a readabilityHandler: that registers a
        // dispatch read source, and closing the pipe while the source is being cancelled crashed the whole
        // test process once, in libdispatch's event loop (a known libdispatch-on-Linux fault).
        let scratch = FileManager.default.temporaryDirectory
        let stdoutFile = scratch.appendingPathComponent("reliability-serve-\(UUID()).out")
        let stderrFile = scratch.appendingPathComponent("reliability-serve-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: stdoutFile) }
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)

        let exit = ExitState()
        process.terminationHandler = { finished in
            exit.finished(
                finished.terminationReason == .uncaughtSignal
                    ? 128 + finished.terminationStatus : finished.terminationStatus)
        }
        try process.run()

        // Generous: the whole suite shares two cores, and once a start (migrations already applied) missed a
        // 30 s deadline while every other suite was running.
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n"),
                let url = URL(string: String(text[range.upperBound..<end]))
            {
                return ServerProcess(baseURL: url, process: process, exit: exit, stderrFile: stderrFile)
            }
            if exit.status != nil { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        let log = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        throw ReliabilityError("routereg serve did not start: \(log.suffix(2000))")
    }

    /// Sends `signal` to the server.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the process to exit and returns its status (128 + signal when killed).
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let done: Int32? = exit.state.withLock { state in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
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
        if exit.status == nil { _ = await killHard() }
        try? FileManager.default.removeItem(at: stderrFile)
    }
}

/// A failure of the test machinery itself, with a message saying what.
struct ReliabilityError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
