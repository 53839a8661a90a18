import CLibPQ
import Dispatch
import Foundation
import Synchronization

/// Listens for change notifications on a dedicated connection and calls back for each one.
///
/// A thread of its own waits on the connection's socket (poll + `PQconsumeInput` + `PQnotifies`), so no
/// caller's thread and nothing of the cooperative pool ever blocks on it. When the connection breaks
/// (server restart, `pg_terminate_backend`, network) it reconnects by itself with exponential backoff and
/// then calls `onReconnect`: notifications sent while it was away are lost, so the caller catches up
/// there (e.g. compares the latest revision numbers with what it serves).
public final class ChangeListener: Sendable {
    private struct State {
        var stopped = false
        var started = false
        var listening = false
        var backendPID: Int32 = 0
        /// The thread got its first LISTEN through and told (or is telling) `start`.
        var firstListenReported = false
        /// `start` stopped waiting: the first LISTEN is then reported through `onReconnect`.
        var startGaveUp = false
    }

    private let url: String
    private let channel: String
    private let maxBackoff: Duration
    private let onChange: @Sendable (ChangeNotice) -> Void
    private let onReconnect: @Sendable () -> Void
    private let state = Mutex(State())
    private let firstListen = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - url: the database to listen on (its own connection, outside any pool).
    ///   - onChange: called on the listener's thread for each notification, in order.
    ///   - onReconnect: called on the listener's thread each time LISTEN is re-established after a break.
    public init(
        url: String, channel: String = Store.changeChannel, maxBackoff: Duration = .seconds(5),
        onChange: @escaping @Sendable (ChangeNotice) -> Void, onReconnect: @escaping @Sendable () -> Void = {}
    ) {
        self.url = url
        self.channel = channel
        self.maxBackoff = maxBackoff
        self.onChange = onChange
        self.onReconnect = onReconnect
    }

    /// Starts the listener thread and waits up to `timeout` for LISTEN to be in place, so that a caller
    /// who loads state after `start` returns true misses nothing. Returns false if the database was not
    /// reachable in time; the listener keeps trying and calls `onReconnect` once it gets through.
    @discardableResult
    public func start(timeout: Duration = .seconds(5)) -> Bool {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        if alreadyStarted { return isListening }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "routereg-listener"
        thread.start()
        if firstListen.wait(timeout: .now() + timeout.seconds) == .success { return true }
        let reportedMeanwhile = state.withLock { state in
            if !state.firstListenReported { state.startGaveUp = true }
            return state.firstListenReported
        }
        if reportedMeanwhile { firstListen.wait() }
        return reportedMeanwhile
    }

    /// Stops listening and waits for the thread to finish (at most about a quarter of a second).
    public func stop() {
        let running = state.withLock { state in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }
        if running { finished.wait() }
    }

    deinit { stop() }

    /// True while LISTEN is in place on a live connection.
    public var isListening: Bool { state.withLock { $0.listening } }

    /// The server process of the listening session (0 when not connected): for logs and tests.
    public var backendPID: Int32 { state.withLock { $0.backendPID } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var connectedBefore = false
        var backoff = 0.05
        while !isStopped {
            if let connection = try? listen() {
                state.withLock {
                    $0.listening = true
                    $0.backendPID = connection.backendPID
                }
                if connectedBefore {
                    onReconnect()
                } else {
                    let startIsWaiting = state.withLock { state in
                        state.firstListenReported = true
                        return !state.startGaveUp
                    }
                    if startIsWaiting { firstListen.signal() } else { onReconnect() }
                }
                connectedBefore = true
                backoff = 0.05
                receive(on: connection)
                state.withLock {
                    $0.listening = false
                    $0.backendPID = 0
                }
            }
            // Sleep in small steps so stop() is not held up by a long backoff.
            let wake = Date().addingTimeInterval(backoff)
            while !isStopped && Date() < wake { usleep(20_000) }
            backoff = min(backoff * 2, maxBackoff.seconds)
        }
    }

    private func listen() throws -> Connection {
        let connection = try Connection(url: url, deadline: .now + .seconds(5))
        // LISTEN takes an identifier, not a parameter; the channel name is the code's own, quoted here.
        let identifier = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try connection.query("LISTEN \(unsafeRaw: identifier)")
        return connection
    }

    /// How often a quiet listening session is asked to answer a round trip: a hung server (SIGSTOP, a frozen
    /// host) keeps the socket open and ACKs keepalives, so silence alone never shows that it stopped.
    static let heartbeatInterval: Duration = .seconds(3)

    /// Delivers notifications until the connection breaks, stops answering heartbeats, or the listener stops.
    private func receive(on connection: Connection) {
        let handle = connection.pgconn
        var lastHeartbeat = ContinuousClock.now
        while !isStopped {
            if lastHeartbeat.duration(to: .now) >= Self.heartbeatInterval {
                connection.deadline = .now + .seconds(2)
                guard (try? connection.query("SELECT 1 AS alive")) != nil else { return }
                lastHeartbeat = .now
            }
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 250)
            if ready < 0 && errno != EINTR { return }
            if ready > 0 && PQconsumeInput(handle) == 0 { return }
            while let notification = PQnotifies(handle) {
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                onChange(ChangeNotice(payload: payload))
            }
            if PQstatus(handle) != CONNECTION_OK { return }
        }
    }
}
