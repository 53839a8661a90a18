import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child started by `Spawn.start()`: its id, how it ended once it has, and what it printed.
///
/// Waits poll `waitpid(WNOHANG)` under a lock rather than block in `waitpid`: any number of threads and tasks
/// may ask at once, async callers never hold a thread of the cooperative pool, and every wait has a deadline.
public final class SpawnedProcess: Sendable {
    /// The child's process id.
    public let pid: Int32
    /// Its process group when it has one of its own (then equal to `pid`).
    public let group: Int32?
    private let registered: Bool
    private let captured: Captured
    /// The exit status once reaped: the exit code, or 128 + the signal that ended it.
    private let reaped = Mutex<Int32?>(nil)

    /// Duplicates of the capture files' descriptors, read when the output is asked for and closed on deinit.
    struct Captured: Sendable {
        var standardOutput: Int32?
        var standardError: Int32?
    }

    init(pid: Int32, group: Int32?, registered: Bool, captured: Captured) {
        self.pid = pid
        self.group = group
        self.registered = registered
        self.captured = captured
    }

    deinit {
        captured.standardOutput.map { _ = close($0) }
        captured.standardError.map { _ = close($0) }
        // Reaped if it has ended; a child still running stays registered, for the reaper's group kill.
        _ = exitStatus
    }

    /// The exit status if the child has ended (reaping it), else `nil`. Never blocks.
    public var exitStatus: Int32? {
        reaped.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            guard result == pid else {
                // ECHILD: someone else reaped it; report it as gone rather than running forever.
                if result < 0 && errno == ECHILD { status = 127 }
                return status
            }
            let signal = raw & 0x7f
            status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            if registered { ProcessReaper.forget(group: group ?? pid) }
            return status
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { exitStatus == nil }

    /// Waits for the child to end, at most `timeout` (forever when `nil`), blocking this thread. Returns its
    /// exit status, or `nil` if it still runs.
    public func wait(timeout: Duration? = nil) -> Int32? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pause = Duration.milliseconds(1)
        while true {
            if let status = exitStatus { return status }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            let nanoseconds = pause.components.attoseconds / 1_000_000_000
            usleep(UInt32(nanoseconds / 1_000))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// `wait(timeout:)` for async callers, sleeping with `Task.sleep` between polls. Cancellation ends the
    /// wait (returning `nil` if the child still runs).
    public func exit(timeout: Duration? = nil) async -> Int32? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pause = Duration.milliseconds(1)
        while true {
            if let status = exitStatus { return status }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            do { try await Task.sleep(for: pause) } catch { return exitStatus }
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Sends `signal` to the child's process group when it has its own (reaching what it started too),
    /// else to the child alone. Harmless once it has been reaped.
    public func signal(_ signal: Int32) {
        guard exitStatus == nil else { return }
        _ = Glibc.kill(group.map { -$0 } ?? pid, signal)
    }

    /// SIGKILL to the child (and its group).
    public func kill() { signal(SIGKILL) }

    /// Asks the child to stop with `signal` (SIGTERM), waits up to `grace`, then kills it; returns the status.
    @discardableResult
    public func terminate(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(10)) async -> Int32 {
        self.signal(signal)
        if let status = await exit(timeout: grace) { return status }
        kill()
        return await exit(timeout: .seconds(30)) ?? 128 + SIGKILL
    }

    /// What the child wrote to a captured standard output so far.
    public var standardOutput: String { Self.read(captured.standardOutput) }
    /// What the child wrote to a captured standard error so far.
    public var standardError: String { Self.read(captured.standardError) }

    func result(_ status: Int32) -> SpawnResult {
        SpawnResult(status: status, standardOutput: standardOutput, standardError: standardError)
    }

    private static func read(_ descriptor: Int32?) -> String {
        guard let descriptor else { return "" }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            offset += off_t(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How a child ended and what it printed.
public struct SpawnResult: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    /// Both streams, standard output first (interleaved when standard error went to `.standardOutput`).
    public var output: String { standardOutput + standardError }
    public var succeeded: Bool { status == 0 }

    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// A child that could not be started, or did not finish in time.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable {
        private let name: String
        public static let cannotStart = Code(name: "cannotStart")
        public static let timedOut = Code(name: "timedOut")
    }

    public let code: Code
    public let message: String
    /// What a timed-out child had printed.
    public let output: SpawnResult?

    init(_ code: Code, _ message: String, output: SpawnResult? = nil) {
        self.code = code
        self.message = message
        self.output = output
    }

    public var description: String { message }
}
