import Foundation

/// The few statements a failover drill needs on a primary and its streaming standby (the test harness's
/// `ReplicatedPostgres`), kept here so SQL stays in the store. Each runs on a short-lived connection.
extension PostgresServerAdmin {
    /// Clears the standby's `primary_conninfo` and reloads its configuration: its WAL receiver exits, so
    /// writes acknowledged on the primary from then on are not replicated.
    public func clearPrimaryConnection() throws {
        try withPooledConnection { connection in
            try connection.execute(script: "ALTER SYSTEM SET primary_conninfo = ''")
            try connection.query("SELECT pg_reload_conf() AS reloaded")
        }
    }

    /// How many WAL receivers run on this server (1 while a standby streams, 0 otherwise).
    public func walReceiverCount() throws -> Int {
        try withPooledConnection { connection in
            try connection.query("SELECT count(*) AS n FROM pg_stat_wal_receiver")[0].int("n")
        }
    }

    /// The primary's current WAL position (`pg_current_wal_lsn()`), as text.
    public func currentWALPosition() throws -> String {
        try withPooledConnection { connection in
            try connection.query("SELECT pg_current_wal_lsn()::text AS lsn")[0].string("lsn")
        }
    }

    /// Whether this standby has replayed the WAL up to `position` (a `currentWALPosition()` of its primary).
    public func hasReplayed(upTo position: String) throws -> Bool {
        try withPooledConnection { connection in
            try connection.query("SELECT pg_last_wal_replay_lsn() >= \(position)::pg_lsn AS done")[0]
                .optionalBool("done") == true
        }
    }

    /// The store's connection type (checked results, bound parameters) on a pool of one, closed after.
    private func withPooledConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try Database(url: url, poolSize: 1).withConnection(body)
    }
}
