import Dispatch
import Testing

@testable import HTTPServing

/// The request counters are kept per thread and added up by `render()`: nothing may be lost or counted
/// twice, whichever threads counted.
@Suite("Sharded metrics")
struct ShardedMetricsTests {
    @Test("counts from many threads add up exactly in the Prometheus text")
    func countsFromManyThreadsAddUp() throws {
        let metrics = ServerMetrics()
        let threads = 12  // more than the shards: some threads share one
        let perThread = 3_000
        let handlers = ["static", "rpc", "healthz"]
        let codes = [200, 304, 404, 200]
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread {
                metrics.requestStarted()
                metrics.requestFinished(
                    handler: handlers[(thread + i) % handlers.count], code: codes[i % codes.count],
                    seconds: i % 2 == 0 ? 0.0001 : 0.02)
                if i % 3 == 0 {
                    metrics.callFinished(method: "CanOpen.Check", status: thread % 2 == 0 ? "OK" : "NOT_FOUND")
                }
            }
        }
        var expected: [String: Int] = [:]
        var perHandler: [String: Int] = [:]
        var fast: [String: Int] = [:]
        for thread in 0..<threads {
            for i in 0..<perThread {
                let handler = handlers[(thread + i) % handlers.count]
                expected[
                    "routereg_http_requests_total{handler=\"\(handler)\",code=\"\(codes[i % codes.count])\"}",
                    default: 0] += 1
                perHandler[handler, default: 0] += 1
                if i % 2 == 0 { fast[handler, default: 0] += 1 }
            }
        }
        let calls = threads / 2 * ((perThread + 2) / 3)
        expected["routereg_rpc_calls_total{method=\"CanOpen.Check\",status=\"OK\"}"] = calls
        expected["routereg_rpc_calls_total{method=\"CanOpen.Check\",status=\"NOT_FOUND\"}"] = calls
        for (handler, count) in perHandler {
            expected["routereg_http_request_duration_seconds_count{handler=\"\(handler)\"}"] = count
            expected["routereg_http_request_duration_seconds_bucket{handler=\"\(handler)\",le=\"+Inf\"}"] = count
            expected["routereg_http_request_duration_seconds_bucket{handler=\"\(handler)\",le=\"0.0005\"}"] =
                fast[handler]
            expected["routereg_http_request_duration_seconds_bucket{handler=\"\(handler)\",le=\"0.025\"}"] = count
        }

        var samples: [String: Int] = [:]
        for line in metrics.render().split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if let value = Int(parts.last ?? "") { samples[parts.dropLast().joined(separator: " ")] = value }
        }
        for (name, value) in expected {
            #expect(samples[name] == value, "\(name)")
        }
        // No series beyond the ones counted: three handlers × three codes, two call outcomes.
        #expect(samples.keys.filter { $0.hasPrefix("routereg_http_requests_total{") }.count == 9)
        #expect(samples.keys.filter { $0.hasPrefix("routereg_rpc_calls_total{") }.count == 2)
        #expect(samples["routereg_http_requests_in_flight"] == 0)
    }
}
