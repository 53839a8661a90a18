import Foundation
import RegistryTesting
import RouteStore

/// A fresh, migrated database (from the shared test harness) for one test suite instance, released
/// (`TestDatabase.release()`) when the instance goes away.
final class StoreTestDatabase: Sendable {
    let url: String
    let database: Database
    private let releaseDatabase: @Sendable () -> Void

    init(suite: String, migrate: Bool = true, poolSize: Int = 8) throws {
        let created = try TestPostgres.makeDatabase(suite: suite)
        url = created.url
        releaseDatabase = { try? created.release() }
        database = Database(Database.Configuration(url: url, poolSize: poolSize))
        if migrate { try MigrationRunner.bundled().run(on: database) }
    }

    deinit {
        database.close()
        releaseDatabase()
    }
}

/// Runs `body` on `count` threads of their own at once (not the cooperative pool: the calls block) and
/// returns the results in index order.
func runConcurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = ResultSlots<T>(count: count)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            results.set(index, body(index))
            group.leave()
        }
        thread.start()
    }
    group.wait()
    return results.values
}

/// Whether `condition` holds within `timeout`, checked every 10 ms.
func eventually(within timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(10_000)
    }
    return true
}

/// Results written by several threads, one slot each.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var slots: [T?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [T] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
