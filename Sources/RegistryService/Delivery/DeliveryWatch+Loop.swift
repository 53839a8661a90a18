import Foundation
import RouteCore
import RouteStore

extension DeliveryWatch {
    /// The watch's thread: takes the observer's lock, asks the schedule what is due, fetches, records the
    /// observations, refreshes this server's board and prunes. Owned by that thread alone.
    struct Loop {
        let watch: DeliveryWatch
        let lock: SessionLock
        var schedule: DeliverySchedule
        var random = SystemRandomNumberGenerator()
        /// Per document: the meanings of its revisions within the look-back, by number, and the newest read.
        var meanings: [DocumentKey: (upTo: Int, byNumber: [Int: String])] = [:]
        var latest: [DocumentKey: DeliveryLatest] = [:]
        /// Whether `latest` was read since this server became the observer (another one may have observed).
        var latestLoaded = false
        var lastLockAttempt: ContinuousClock.Instant?
        var lastRefresh: ContinuousClock.Instant?
        var lastPrune: ContinuousClock.Instant?

        init(watch: DeliveryWatch, lock: SessionLock) {
            self.watch = watch
            self.lock = lock
            self.schedule = DeliverySchedule(timing: watch.options.timing)
        }

        var service: RegistryService { watch.service }
        var options: Options { watch.options }

        mutating func run() {
            while !watch.isStopped {
                if options.observe { keepLock() }
                var observed = false
                if lock.isHeld { observed = observeDue() }
                if observed || lastRefresh.map({ $0.duration(to: .now) >= options.refreshInterval }) ?? true {
                    refreshBoard()
                }
                if lock.isHeld, lastPrune.map({ $0.duration(to: .now) >= .seconds(3600) }) ?? true { prune() }
                sleep(options.tick)
            }
            releaseLock()
        }

        private func sleep(_ interval: Duration) {
            let wake = ContinuousClock.now + interval
            while ContinuousClock.now < wake, !watch.isStopped {
                Thread.sleep(forTimeInterval: min(0.05, max(0, ContinuousClock.now.duration(to: wake).seconds)))
            }
        }

        // MARK: The lock

        /// Tries to become the observer, or checks that the lock's connection still holds it.
        private mutating func keepLock() {
            // A read-only server (a hot standby) cannot record observations.
            if service.readOnlyReason != nil {
                if lock.isHeld { releaseLock() }
                return
            }
            if let last = lastLockAttempt, last.duration(to: .now) < options.lockInterval { return }
            lastLockAttempt = .now
            if lock.isHeld {
                if lock.confirm(deadline: .now + .seconds(5)) { return }
                watch.log("delivery watch: lost the observer lock's connection; another server may observe")
                return
            }
            // The database away: try again at the next interval.
            guard (try? lock.tryAcquire(deadline: .now + .seconds(5))) == true else { return }
            schedule.reset()
            latestLoaded = false
            watch.log("delivery watch: this server observes Apple's CDN and Google's Digital Asset Links API")
        }

        private mutating func releaseLock() {
            lock.release(deadline: .now + .seconds(2))
        }

        // MARK: Observing

        /// Observes the documents that are due; true when anything was recorded.
        private mutating func observeDue() -> Bool {
            let documents = service.snapshot.documents
            if !latestLoaded { readLatest() }
            let now = ContinuousClock.now
            let wallNow = Date()
            schedule.sync(
                current: documents.mapValues(\.revision),
                history: { [latest] key in
                    guard let last = latest[key]?.last else { return nil }
                    let age = Duration.milliseconds(Int64(max(0, wallNow.timeIntervalSince(last.observedAt)) * 1000))
                    let servesCurrent = latest[key]?.content?.matchedRevision == documents[key]?.revision
                    return DeliverySchedule.History(age: age, servesCurrent: servesCurrent)
                }, now: now, using: &random)
            let due = schedule.due(at: now, limit: options.concurrency * 4)
            guard !due.isEmpty else { return false }
            let results = fetch(due.map { request(for: $0) })
            // Stopping: the fetches were abandoned, and there is nothing true to record.
            if watch.isStopped { return false }
            var recorded = false
            for (index, key) in due.enumerated() {
                guard let document = documents[key] else { continue }
                let observation = observation(
                    key: key, result: results[index].result, duration: results[index].duration, document: document)
                recorded = persist(observation, key: key) || recorded
                schedule.record(
                    key, outcome: observation.outcome, servesCurrent: observation.matchedRevision == document.revision,
                    currentRevision: document.revision, now: .now, using: &random)
            }
            return recorded
        }

        /// Records an observation and remembers it as the document's latest; false when it could not be.
        private mutating func persist(_ observation: DeliveryObservation, key: DocumentKey) -> Bool {
            do {
                try service.store.database.withTransaction(deadline: .now + .seconds(5)) { tx in
                    var stored = observation
                    stored.id = try service.store.delivery.record(observation, in: tx)
                    latest[key] = DeliveryLatest(
                        last: stored, content: observation.outcome.tellsContent ? stored : latest[key]?.content)
                }
                return true
            } catch {
                watch.log("delivery watch: could not record an observation of \(key.host): \(error)")
                return false
            }
        }

        private mutating func readLatest() {
            if let read = try? service.store.read(
                deadline: .now + .seconds(5),
                { tx in
                    try service.store.delivery.latest(
                        hosts: Array(Set(service.snapshot.documents.keys.map(\.host))).sorted(), in: tx)
                })
            {
                latest = read
                latestLoaded = true
            }
        }

        private mutating func refreshBoard() {
            lastRefresh = .now
            if let states = try? service.deliveryStates(deadline: .now + .seconds(5)) {
                service.delivery.replace(states)
            }
        }

        private mutating func prune() {
            lastPrune = .now
            let cutoff = Date().addingTimeInterval(-options.retention.seconds)
            _ = try? service.store.database.withTransaction(deadline: .now + .seconds(30)) { tx in
                try service.store.delivery.prune(olderThan: cutoff, in: tx)
            }
        }
    }
}
