import Foundation
import RegistryService
import Synchronization

/// Runs `WebhookDelivery` rounds on a thread of its own, every `interval` while the database is writable. A
/// stop abandons a POST in flight (its events stay for the next round, here or on another server) instead of
/// waiting for a slow receiver, then ends.
final class WebhookDelivering: ApplicationService {
    let name = "webhook delivery"
    private let interval: Duration
    private let roundTimeout: Duration
    private let delivery: @Sendable () -> WebhookDelivery
    private let writable: @Sendable () -> Bool
    private let stopped = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - delivery: the deliverer, built once the pool exists.
    ///   - roundTimeout: how long one round may take (each POST at most `WebhookDelivery.postTimeout`).
    init(
        interval: Duration = .seconds(1), roundTimeout: Duration = .seconds(20),
        writable: @escaping @Sendable () -> Bool, delivery: @escaping @Sendable () -> WebhookDelivery
    ) {
        self.interval = interval
        self.roundTimeout = roundTimeout
        self.writable = writable
        self.delivery = delivery
    }

    func start() throws {
        running.store(true, ordering: .relaxed)
        let deliverer = delivery()
        let thread = Thread { [self] in
            while !pause() {
                if writable() {
                    deliverer.round(deadline: .now + roundTimeout) { self.stopped.load(ordering: .relaxed) }
                }
            }
            done.signal()
        }
        thread.name = "routereg-webhooks"
        thread.start()
    }

    func stop(deadline: ContinuousClock.Instant) {
        stopped.store(true, ordering: .relaxed)
        guard running.exchange(false, ordering: .relaxed) else { return }
        _ = done.wait(
            timeout: .now() + .milliseconds(Int(max(0, ContinuousClock.now.duration(to: deadline) / .milliseconds(1)))))
    }

    /// Sleeps one interval in short steps; true when stopped meanwhile.
    private func pause() -> Bool {
        let wake = ContinuousClock.now + interval
        while ContinuousClock.now < wake {
            if stopped.load(ordering: .relaxed) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return stopped.load(ordering: .relaxed)
    }
}
