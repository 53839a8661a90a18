import Foundation
import RouteCore

extension DeliveryWatch {
    /// The watch's endpoints, timings and limits.
    public struct Options: Sendable {
        /// The base before `/a/v1/{host}`.
        public var appleCDN: URL
        /// The base before `/v1/statements:list`.
        public var assetLinksAPI: URL
        /// Fetch and observe (false: only read what another server observed, for this server's metrics).
        public var observe: Bool
        public var interval: Duration
        /// For a document whose current revision the service has not shown yet.
        public var pendingInterval: Duration
        /// ± this fraction of each wait, so a fleet's domains do not all fall due together.
        public var jitter: Double
        public var fetchTimeout: Duration
        /// Apple's limit is 128 KB; a little more is read so an oversize file is seen as such.
        public var maxBytes: Int
        public var concurrency: Int
        public var errorBackoff: Duration
        /// Observations older than this are deleted (each document's latest are kept).
        public var retention: Duration
        /// Between two reads of the observations into this server's metrics.
        public var refreshInterval: Duration
        /// Between two attempts to become the observer (and health checks of its lock's connection).
        public var lockInterval: Duration
        /// The loop's step.
        public var tick: Duration

        public static let defaultAppleCDN = URL(string: "https://app-site-association.cdn-apple.com")!
        public static let defaultAssetLinksAPI = URL(string: "https://digitalassetlinks.googleapis.com")!

        public init(
            appleCDN: URL = defaultAppleCDN, assetLinksAPI: URL = defaultAssetLinksAPI, observe: Bool = true,
            interval: Duration = .seconds(3600), pendingInterval: Duration? = nil, jitter: Double = 0.1,
            fetchTimeout: Duration = .seconds(10), maxBytes: Int = 128 * 1024 + 64 * 1024, concurrency: Int = 4,
            errorBackoff: Duration = .seconds(60), retention: Duration = .seconds(30 * 86_400),
            refreshInterval: Duration = .seconds(30), lockInterval: Duration = .seconds(15),
            tick: Duration = .seconds(1)
        ) {
            self.appleCDN = appleCDN
            self.assetLinksAPI = assetLinksAPI
            self.observe = observe
            self.interval = interval
            self.pendingInterval = pendingInterval ?? max(.seconds(1), interval / 6)
            self.jitter = jitter
            self.fetchTimeout = fetchTimeout
            self.maxBytes = maxBytes
            self.concurrency = max(1, concurrency)
            self.errorBackoff = errorBackoff
            self.retention = retention
            self.refreshInterval = refreshInterval
            self.lockInterval = lockInterval
            self.tick = tick
        }

        /// The schedule's waits.
        public var timing: DeliverySchedule.Timing {
            DeliverySchedule.Timing(
                interval: interval, pendingInterval: pendingInterval, errorBackoff: errorBackoff, jitter: jitter)
        }
    }
}
