import Foundation
import Synchronization
import ThreadShards

/// The server's Prometheus metrics: request counters, a latency histogram, the in-flight gauge, and gauges
/// the application registers as closures (snapshot age, revision numbers, database pool use).
///
/// Request and call counters are sharded by thread (`ThreadSlot`): each request thread updates its own shard
/// under a lock no other request thread takes, so no lock or cache line moves between cores on every request
/// (one mutex for all of them did). `render()` adds the shards up, each read whole under its lock.
public final class ServerMetrics: Sendable {
    /// One value of a registered gauge, with its labels.
    public struct Sample: Sendable {
        public var labels: [(String, String)]
        public var value: Double

        public init(labels: [(String, String)] = [], value: Double) {
            self.labels = labels
            self.value = value
        }
    }

    struct HTTPKey: Hashable {
        var handler: String
        var code: Int
    }

    struct RPCKey: Hashable {
        var method: String
        var status: String
    }

    struct Histogram {
        var buckets: [Int]
        var count = 0
        var sum = 0.0

        mutating func record(bucket: Int?, seconds: Double) {
            if let bucket { buckets[bucket] += 1 }
            count += 1
            sum += seconds
        }

        /// No observations yet.
        static var empty: Histogram { Histogram(buckets: Array(repeating: 0, count: ServerMetrics.bounds.count)) }

        mutating func add(_ other: Histogram) {
            for index in buckets.indices { buckets[index] += other.buckets[index] }
            count += other.count
            sum += other.sum
        }
    }

    struct Gauge {
        var name: String
        var help: String
        var type = "gauge"
        var sample: @Sendable () -> [Sample]
    }

    struct State {
        var gauges: [Gauge] = []
    }

    /// One shard of the counters, in an object of its own.
    final class CountShard: Sendable {
        let counts = Mutex(RequestCounts())
    }

    /// Upper bounds of the latency buckets, in seconds.
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private let state = Mutex(State())
    private let inFlight = StripedCounter()
    private let shards: [CountShard] = (0..<ThreadSlot.shardCount).map { _ in CountShard() }

    /// The calling thread's shard.
    private var shard: CountShard { shards[ThreadSlot.currentShard] }

    public init() {}

    /// Adds a gauge computed when `/metrics` is scraped. `name` should carry the `routereg_` prefix.
    public func registerGauge(_ name: String, help: String, _ sample: @escaping @Sendable () -> [Sample]) {
        state.withLock { $0.gauges.append(Gauge(name: name, help: help, sample: sample)) }
    }

    /// Adds a counter whose value is read when `/metrics` is scraped (it counts elsewhere, e.g. in the log
    /// writer). `name` should end in `_total`.
    public func registerCounter(_ name: String, help: String, _ sample: @escaping @Sendable () -> [Sample]) {
        state.withLock { $0.gauges.append(Gauge(name: name, help: help, type: "counter", sample: sample)) }
    }

    func requestStarted() { inFlight.add(1) }

    /// Counts a finished HTTP request: `handler` is a small fixed vocabulary (rpc, static, healthz…).
    func requestFinished(handler: String, code: Int, seconds: Double) {
        inFlight.add(-1)
        let bucket = Self.bounds.firstIndex(where: { seconds <= $0 })
        shard.counts.withLock { $0.requestFinished(handler: handler, code: code, bucket: bucket, seconds: seconds) }
    }

    /// Counts one JSON-RPC call by method and outcome (a gRPC status name or a JSON-RPC error name).
    public func callFinished(method: String, status: String) {
        shard.counts.withLock { $0.rpc[RPCKey(method: method, status: status), default: 0] += 1 }
    }

    /// Requests being processed now.
    public var requestsInFlight: Int { inFlight.sum }

    /// The Prometheus text exposition format, version 0.0.4.
    public func render() -> String {
        let snapshot = state.withLock { $0 }
        let totals = RequestCounts.total(of: shards.map { shard in shard.counts.withLock { $0 } })
        var out = ""
        out += "# HELP routereg_http_requests_total HTTP requests by handler and status code.\n"
        out += "# TYPE routereg_http_requests_total counter\n"
        for (key, value) in totals.http.sorted(by: { ($0.key.handler, $0.key.code) < ($1.key.handler, $1.key.code) }) {
            out += "routereg_http_requests_total{handler=\"\(key.handler)\",code=\"\(key.code)\"} \(value)\n"
        }
        out += "# HELP routereg_rpc_calls_total JSON-RPC calls by method and status.\n"
        out += "# TYPE routereg_rpc_calls_total counter\n"
        for (key, value) in totals.rpc.sorted(by: { ($0.key.method, $0.key.status) < ($1.key.method, $1.key.status) }) {
            out += "routereg_rpc_calls_total{method=\"\(escape(key.method))\",status=\"\(key.status)\"} \(value)\n"
        }
        out += "# HELP routereg_http_request_duration_seconds Time from first byte to response, by handler.\n"
        out += "# TYPE routereg_http_request_duration_seconds histogram\n"
        for (handler, histogram) in totals.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in Self.bounds.enumerated() {
                cumulative += histogram.buckets[index]
                out += "routereg_http_request_duration_seconds_bucket{handler=\"\(handler)\",le=\"\(bound)\"} "
                out += "\(cumulative)\n"
            }
            out += "routereg_http_request_duration_seconds_bucket{handler=\"\(handler)\",le=\"+Inf\"} "
            out += "\(histogram.count)\n"
            out += "routereg_http_request_duration_seconds_sum{handler=\"\(handler)\"} \(histogram.sum)\n"
            out += "routereg_http_request_duration_seconds_count{handler=\"\(handler)\"} \(histogram.count)\n"
        }
        out += "# HELP routereg_http_requests_in_flight Requests being processed.\n"
        out += "# TYPE routereg_http_requests_in_flight gauge\n"
        out += "routereg_http_requests_in_flight \(requestsInFlight)\n"
        for gauge in snapshot.gauges {
            out += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) \(gauge.type)\n"
            for sample in gauge.sample() {
                let labels = sample.labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",")
                out += labels.isEmpty ? gauge.name : "\(gauge.name){\(labels)}"
                out += " \(sample.value)\n"
            }
        }
        return out
    }

    private func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
