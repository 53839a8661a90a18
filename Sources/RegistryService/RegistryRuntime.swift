import Foundation
import RouteStore
import Synchronization

/// Keeps a `RegistryService` in step with its database: applies migrations (or, on a hot standby, checks
/// them) and loads the snapshot at start, serving the persisted one while the database is away; rebuilds the
/// snapshot when another server's write is announced (LISTEN/NOTIFY) and polls the database as a safety net
/// (on a standby, which cannot LISTEN to the primary's writes, polling is how writes arrive).
///
/// One monitor thread does all of the waiting on the database, never an HTTP worker: it probes the database
/// (the poll is the probe), records `routereg_database_up` and the listener's state, logs each loss and
/// recovery once, reloads the whole registry after any reconnect (the database may be another server since
/// a failover), and periodically compares the snapshot with a full load (`verifySnapshot`).
public final class RegistryRuntime: Sendable {
    /// Timings of the monitor.
    public struct Options: Sendable {
        /// Between two polls of the database (each one cheap query).
        public var pollInterval: Duration
        /// How long one poll may wait for the database.
        public var probeTimeout: Duration
        /// Between two full-load checks of the snapshot (`verifySnapshot`); zero turns them off.
        public var verifyInterval: Duration
        /// Between two writes of the clicks counted in memory: what a crash can lose at most.
        public var clickFlushInterval: Duration
        /// Click and miss counters of days older than this many are deleted (0: kept forever). The default,
        /// 400 days, keeps a year over year comparison of the same month, as analytics products keep ~13 months.
        public var clickRetentionDays: Int
        /// Between two rounds of deleting old counters (a round that leaves some goes on at the next poll).
        public var clickPruneInterval: Duration
        /// Whether the monitor writes the clicks and token uses counted in memory (every
        /// `clickFlushInterval`, and once more on stop). False when separate services do it
        /// (`RegistryApplication`) or when nothing may be written (`backup check`).
        public var flushesCounters: Bool

        /// `serve --click-retention-days`' default.
        public static let defaultClickRetentionDays = 400

        public init(
            pollInterval: Duration = .seconds(1), probeTimeout: Duration = .seconds(2),
            verifyInterval: Duration = .seconds(60), clickFlushInterval: Duration = .seconds(2),
            clickRetentionDays: Int = defaultClickRetentionDays, clickPruneInterval: Duration = .seconds(3600),
            flushesCounters: Bool = true
        ) {
            self.flushesCounters = flushesCounters
            self.pollInterval = pollInterval
            self.probeTimeout = probeTimeout
            self.verifyInterval = verifyInterval
            self.clickFlushInterval = clickFlushInterval
            self.clickRetentionDays = clickRetentionDays
            self.clickPruneInterval = clickPruneInterval
        }
    }

    public let service: RegistryService
    private let options: Options
    private let listener: ChangeListener
    private let stopped = Atomic<Bool>(false)
    private let monitorDone = DispatchSemaphore(value: 0)
    private let monitorStarted = Atomic<Bool>(false)
    private let log: @Sendable (String) -> Void
    /// Set by the listener when it reconnected: the next poll reloads everything.
    private let reloadNeeded = ReloadFlag()

    /// - Parameter databaseURL: the same database the service's store uses (the listener needs its own
    ///   connection).
    public init(
        service: RegistryService, databaseURL: String, options: Options = Options(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.service = service
        self.options = options
        self.log = log
        let reloadNeeded = self.reloadNeeded
        listener = ChangeListener(
            url: databaseURL,
            // A server's own write comes back as a notification too; its snapshot is already that state.
            onChange: { notice in
                if !Self.isAlreadyServed(notice, by: service.snapshot) { Self.refresh(service, log: log) }
            },
            // Notifications sent while the connection was down are lost, and the server behind the URL may be
            // another one since a failover: reload everything.
            onReconnect: {
                reloadNeeded.value.store(true, ordering: .relaxed)
                Self.refresh(service, force: true, log: log)
            })
    }

    /// Prepares the schema and loads the snapshot; returns true when the database answered. When it did not,
    /// the persisted snapshot is served and the monitor keeps trying. Throws only for a schema that cannot be
    /// used (an applied migration changed, or a replica whose primary is not migrated).
    @discardableResult
    public func start() throws -> Bool {
        let prepared = try prepareSchema()
        // LISTEN before loading: a write committed in between (say, the last one of a server that was just
        // killed, landing late) is then announced; loaded first, the snapshot missed it until the next poll.
        // A replica does not listen: NOTIFY is not replicated to standbys.
        if prepared, service.readOnlyReason == nil { listener.start(timeout: .seconds(2)) }
        let ready = prepared && service.start()
        service.recordDatabase(up: ready)
        if !ready {
            if service.snapshot.generation == 0 { service.start() }
            log("database unavailable: serving the last persisted snapshot; retrying in the background")
        }
        monitorStarted.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            monitor(schemaReady: prepared)
            monitorDone.signal()
        }
        thread.name = "routereg-db-monitor"
        thread.start()
        return ready
    }

    /// Stops the monitor and the listener, and waits until the last snapshot is persisted.
    /// Stopping twice is harmless.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        if monitorStarted.exchange(false, ordering: .relaxed) { monitorDone.wait() }
        listener.stop()
        service.flushPersistedSnapshot()
        guard options.flushesCounters else { return }
        // A graceful stop writes every click counted (RELIABILITY.md: what a crash can lose).
        service.flushClicks(deadline: .now + .seconds(5))
        service.flushTokenUses(deadline: .now + .seconds(5))
    }

    /// The monitor loop: one poll per interval until stopped.
    private func monitor(schemaReady: Bool) {
        var schemaReady = schemaReady
        var downSince: ContinuousClock.Instant? = service.isDatabaseUp == true ? nil : .now
        var lastVerify = ContinuousClock.now
        var lastClickFlush = ContinuousClock.now
        // The first round soon after start: a server that restarts often still deletes old counters.
        var nextClickPrune = ContinuousClock.now
        var listening = listener.isListening
        if service.readOnlyReason == nil { service.recordListener(connected: listening) }
        while !sleep(options.pollInterval) {
            if !schemaReady { schemaReady = (try? prepareSchema()) == true }
            let force = downSince != nil || reloadNeeded.value.exchange(false, ordering: .relaxed)
            let up: Bool
            do {
                guard schemaReady else { throw StoreError(.connectionFailed) }
                try service.refreshSnapshot(force: force, deadline: .now + options.probeTimeout)
                up = true
            } catch {
                up = false
            }
            service.recordDatabase(up: up)
            if up, let since = downSince {
                log(
                    String(
                        format: "database reachable again after %.1f s; snapshot reloaded from it",
                        since.duration(to: .now).seconds))
                downSince = nil
                if service.readOnlyReason == nil && !listener.isListening { listener.start(timeout: .zero) }
            } else if !up, downSince == nil {
                log("database unreachable: serving the snapshot; writes fail until it returns")
                downSince = .now
            }
            if service.readOnlyReason == nil, listener.isListening != listening {
                listening = listener.isListening
                service.recordListener(connected: listening)
                log(listening ? "change listener connected" : "change listener disconnected; polling meanwhile")
            }
            if options.flushesCounters, up, service.readOnlyReason == nil,
                lastClickFlush.duration(to: .now) >= options.clickFlushInterval
            {
                lastClickFlush = .now
                service.flushClicks(deadline: .now + options.probeTimeout)
                service.flushTokenUses(deadline: .now + options.probeTimeout)
            }
            if up, service.readOnlyReason == nil, options.clickRetentionDays > 0, ContinuousClock.now >= nextClickPrune
            {
                // A short round (a second at most) on the monitor thread; what it leaves waits one poll.
                let round = service.pruneClicks(
                    retentionDays: options.clickRetentionDays, statementTimeout: options.probeTimeout)
                nextClickPrune = .now + (round.done ? options.clickPruneInterval : options.pollInterval)
            }
            if up, options.verifyInterval > .zero, lastVerify.duration(to: .now) >= options.verifyInterval {
                lastVerify = .now
                _ = try? service.verifySnapshot(deadline: .now + options.probeTimeout * 5)
            }
        }
    }

    /// Sleeps `interval` in small steps; returns true when the runtime was stopped meanwhile.
    private func sleep(_ interval: Duration) -> Bool {
        let wake = ContinuousClock.now + interval
        while ContinuousClock.now < wake {
            if stopped.load(ordering: .relaxed) { return true }
            Thread.sleep(forTimeInterval: min(0.05, max(0, ContinuousClock.now.duration(to: wake).seconds)))
        }
        return stopped.load(ordering: .relaxed)
    }

    /// Applies pending migrations on a primary; on a hot standby (or with `--read-only`) checks that the
    /// schema is this build's instead, and refuses writes. False when the database is unreachable.
    private func prepareSchema() throws -> Bool {
        do {
            if let standby = try standbyDescription() {
                service.setReadOnly("the database at \(standby) is a read-only hot standby")
            }
            if service.readOnlyReason != nil {
                try MigrationRunner.bundled().verify(on: service.store.database, deadline: .now + .seconds(5))
                log("read-only replica mode: \(service.readOnlyReason!); writes are refused")
                return true
            }
            let applied = try MigrationRunner.bundled().run(on: service.store.database)
            if !applied.isEmpty { log("applied migrations: \(applied.joined(separator: ", "))") }
            return true
        } catch let error as StoreError
            where error.isConnectionFailure || error.code == .poolTimeout || error.code == .deadlineExceeded
        {
            return false
        }
    }

    /// "host:port" of the database when it is a hot standby, else nil.
    private func standbyDescription() throws -> String? {
        try service.store.standbyAddress(deadline: .now + .seconds(5))
    }

    /// Whether the snapshot is already the state a notification announces (the server's own write, installed
    /// before its notification arrived): then there is nothing to ask the database.
    static func isAlreadyServed(_ notice: ChangeNotice, by snapshot: Snapshot) -> Bool {
        guard let token = notice.writeToken else { return false }
        return snapshot.writeToken == token
    }

    /// Refreshes, retrying briefly: the notification may arrive just as pooled connections are being
    /// replaced (the first use of a connection the server cut fails).
    private static func refresh(_ service: RegistryService, force: Bool = false, log: @Sendable (String) -> Void) {
        for attempt in 1...3 {
            do {
                try service.refreshSnapshot(force: force, deadline: .now + .seconds(5))
                return
            } catch {
                if attempt == 3 { log("snapshot refresh failed: \(error)") }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }
}

/// A flag the listener's callback and the monitor share (an `Atomic` cannot be captured by a closure).
private final class ReloadFlag: Sendable {
    let value = Atomic<Bool>(false)
}
