/// The request and call counters of one shard of `ServerMetrics`.
///
/// Requests are counted by handler label, then status code, in arrays searched in order: a server has six
/// labels and a few codes per label, and comparing two short strings is cheaper than hashing one (the
/// dictionary keyed by label and code hashed the label twice per request).
struct RequestCounts {
    struct Handler {
        let label: String
        var codes: [(code: Int, count: Int)] = []
        var latency = ServerMetrics.Histogram.empty

        mutating func count(code: Int) {
            if let index = codes.firstIndex(where: { $0.code == code }) {
                codes[index].count += 1
            } else {
                codes.append((code, 1))
            }
        }
    }

    var handlers: [Handler] = []
    var rpc: [ServerMetrics.RPCKey: Int] = [:]

    mutating func requestFinished(handler label: String, code: Int, bucket: Int?, seconds: Double) {
        let index: Int
        if let found = handlers.firstIndex(where: { $0.label == label }) {
            index = found
        } else {
            handlers.append(Handler(label: label))
            index = handlers.count - 1
        }
        handlers[index].count(code: code)
        handlers[index].latency.record(bucket: bucket, seconds: seconds)
    }

    /// Every shard's counts added up, keyed as `render()` prints them.
    static func total(of shards: [RequestCounts]) -> (
        http: [ServerMetrics.HTTPKey: Int], rpc: [ServerMetrics.RPCKey: Int], latency: [String: ServerMetrics.Histogram]
    ) {
        var http: [ServerMetrics.HTTPKey: Int] = [:]
        var rpc: [ServerMetrics.RPCKey: Int] = [:]
        var latency: [String: ServerMetrics.Histogram] = [:]
        for shard in shards {
            rpc.merge(shard.rpc, uniquingKeysWith: +)
            for handler in shard.handlers {
                for (code, count) in handler.codes {
                    http[ServerMetrics.HTTPKey(handler: handler.label, code: code), default: 0] += count
                }
                latency[handler.label, default: .empty].add(handler.latency)
            }
        }
        return (http, rpc, latency)
    }
}
