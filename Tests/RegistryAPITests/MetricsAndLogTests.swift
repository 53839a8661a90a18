import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RouteCore
import Testing

func JSONValueOf(_ response: RawHTTPClient.Response) throws -> JSONValue { try JSONValue(json: Data(response.body)) }

@Suite("Metrics and request log")
struct MetricsAndLogTests {
    @Test("/metrics shows counters, the histogram, in-flight and registered gauges in Prometheus text")
    func metrics() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.server.metrics.registerGauge("routereg_snapshot_revision", help: "Revision per host.") {
            [ServerMetrics.Sample(labels: [("host", "m.example.com")], value: 3)]
        }
        _ = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.Echo","params":{"text":"a"},"id":1}"#)
        _ = try server.rpc(#"{"jsonrpc":"2.0","method":"Test.NotFound","id":1}"#)
        _ = try server.rpc(#"{"jsonrpc":"2.0","method":"Nope","id":1}"#)
        try waitUntil { server.server.metrics.requestsInFlight == 0 }
        let response = try server.client().request("GET", "/metrics")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = response.text
        #expect(text.contains(#"routereg_rpc_calls_total{method="Test.Echo",status="OK"} 1"#))
        #expect(text.contains(#"routereg_rpc_calls_total{method="Test.NotFound",status="NOT_FOUND"} 1"#))
        #expect(text.contains(#"routereg_rpc_calls_total{method="-",status="METHOD_NOT_FOUND"} 1"#))
        #expect(text.contains(#"routereg_http_requests_total{handler="rpc",code="200"} 3"#))
        #expect(text.contains(#"routereg_http_request_duration_seconds_count{handler="rpc"} 3"#))
        #expect(text.contains(#"routereg_http_request_duration_seconds_bucket{handler="rpc",le="+Inf"} 3"#))
        #expect(text.contains("# TYPE routereg_http_request_duration_seconds histogram"))
        #expect(text.contains("routereg_http_requests_in_flight 1"))
        #expect(text.contains(#"routereg_snapshot_revision{host="m.example.com"} 3.0"#))
    }

    @Test("one JSON line per request, without tokens or bodies")
    func log() throws {
        let lines = LogLines()
        let server = try TestServer(log: .custom { lines.append($0) })
        defer { server.stop() }
        let response = try server.rpc(
            #"{"jsonrpc":"2.0","method":"Test.Admin","params":{"secretBody":1},"id":1}"#,
            headers: [("Authorization", "Bearer a")])
        let requestID = try #require(response.header("x-request-id"))
        try waitUntil { !lines.all.isEmpty }
        let line = try #require(lines.all.first)
        let value = try JSONValue(json: Data(line.utf8))
        #expect(value["requestId"]?.stringValue == requestID)
        #expect(value["method"]?.stringValue == "POST")
        #expect(value["path"]?.stringValue == "/rpc")
        #expect(value["rpc"] == .array([.string("Test.Admin")]))
        #expect(value["status"]?.int == 200)
        #expect(value["durationMs"] != nil)
        // No client address unless asked for (`serve --log-client-address`).
        #expect(value["remote"] == nil && !line.contains("127.0.0.1"))
        #expect(value["ts"]?.stringValue != nil)
        #expect(!line.contains("Bearer") && !line.contains("secretBody"))
    }
}
