import Foundation
import HTTPServing
import RegistryAPI
import RegistryService
import RouteStore

/// The database does not answer, and the configuration requires it (`backup check`).
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    /// Says so without the URL (it may hold a password).
    public var description: String { "the database did not answer" }
}

extension RegistryApplication {
    /// The services in start order: embedded PostgreSQL, pool, snapshot persistence, database monitor, click
    /// flushing, token-use flushing, webhook delivery, delivery watch, request log, HTTP server. Each one that needs a part
    /// reads it from `built`, which the pool's start fills.
    static func services(_ configuration: Configuration, built: Slot<Parts>) -> [any ApplicationService] {
        let url = Slot<String>()
        var services: [any ApplicationService] = []
        switch configuration.database {
        case .url(let given):
            url.set(given)
        case .embedded(let dataDirectory):
            let cluster = EmbeddedPostgres(dataDirectory: dataDirectory)
            services.append(
                ClosureService(
                    "embedded PostgreSQL",
                    start: {
                        let started = try cluster.start()
                        url.set(started)
                        configuration.log("embedded PostgreSQL running under \(dataDirectory)")
                    }, stop: { _ in try? cluster.stop() }))
        }
        @Sendable func parts() -> Parts { built.current! }
        services.append(
            ClosureService(
                "pool", start: { built.set(Self.build(configuration, url: url.current ?? "")) },
                stop: { _ in parts().pool.close() }))
        services.append(ClosureService("snapshot persistence", stop: { _ in parts().service.flushPersistedSnapshot() }))
        services.append(
            ClosureService(
                "database monitor",
                start: {
                    let ready = try parts().runtime.start()
                    if configuration.requiresDatabase && !ready {
                        // Not counted as started, so the group will not stop it: its monitor thread ends here.
                        parts().runtime.stop()
                        throw DatabaseUnavailable()
                    }
                }, stop: { _ in parts().runtime.stop() }))
        if configuration.writesCounters {
            let runtime = configuration.runtime
            services.append(
                CounterFlushing(
                    "click flushing", interval: runtime.clickFlushInterval, timeout: runtime.probeTimeout,
                    writable: { CounterFlushing.writable(parts().service)() },
                    flush: { parts().service.flushClicks(deadline: $0) }))
            services.append(
                CounterFlushing(
                    "token-use flushing", interval: runtime.clickFlushInterval, timeout: runtime.probeTimeout,
                    writable: { CounterFlushing.writable(parts().service)() },
                    flush: { parts().service.flushTokenUses(deadline: $0) }))
        }
        if configuration.writesCounters {
            // Every server may deliver; the lease in the database lets one at a time.
            let holder = "\(ProcessInfo.processInfo.hostName)/\(getpid())/\(UUID().uuidString.prefix(8))"
            services.append(
                WebhookDelivering(
                    writable: { CounterFlushing.writable(parts().service)() },
                    delivery: {
                        WebhookDelivery(
                            store: parts().service.store, holder: holder,
                            privateHosts: configuration.service.webhookPrivateHosts, log: configuration.log)
                    }))
        }
        if configuration.delivery != nil {
            services.append(
                ClosureService(
                    "delivery watch", start: { parts().delivery?.start() }, stop: { _ in parts().delivery?.stop() }))
        }
        services.append(
            ClosureService(
                "request log",
                stop: { deadline in
                    let left = ContinuousClock.now.duration(to: deadline)
                    if !configuration.requestLog.close(timeout: max(left, .zero)) {
                        configuration.log("the request log could not be written in \(configuration.stopTimeout)")
                    }
                }))
        services.append(
            ClosureService("http", start: { try parts().server.start() }, stop: { _ in parts().server.stop() }))
        return services
    }

    /// Every part, wired once; no I/O (the pool connects on first use).
    static func build(_ configuration: Configuration, url: String) -> Parts {
        let pool = Database(url: url, poolSize: configuration.poolSize)
        let service = RegistryService(store: Store(database: pool), options: configuration.service)
        // Clicks and token uses are written by their own services (or not at all), not by the monitor.
        var runtimeOptions = configuration.runtime
        runtimeOptions.flushesCounters = false
        let runtime = RegistryRuntime(
            service: service, databaseURL: url, options: runtimeOptions, log: configuration.log)
        let delivery = configuration.delivery.map {
            DeliveryWatch(service: service, databaseURL: url, options: $0, log: configuration.log)
        }
        let server = RegistryServer(
            service: service, configuration: configuration.http, cacheMaxAge: configuration.cacheMaxAge,
            log: configuration.requestLog, console: configuration.console, build: configuration.build,
            signInLimit: configuration.signInLimit, adminSurfaces: configuration.adminSurfaces)
        return Parts(
            databaseURL: url, pool: pool, service: service, runtime: runtime, delivery: delivery, server: server)
    }
}
