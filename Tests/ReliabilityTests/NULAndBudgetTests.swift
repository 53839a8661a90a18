import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryTesting
import Testing

/// A NUL in the request target or in Host is refused (400) instead of cutting the C string there, and one
/// request cannot make the server send much more than it asked for in a batch.
@Suite("NUL bytes and the response budget")
struct NULAndBudgetTests {
    private static let host = "nul.example.com"

    private static func server() async throws -> TestRegistryServer {
        let registry = try TestRegistryServer(suite: "nul_budget")
        let client = RegistryClient(baseURL: registry.baseURL, token: TestRegistryServer.adminToken)
        _ = try await client.result("Apps.Create", Fixture.app("nul"))
        _ = try await client.result("Domains.Create", ["domain": ["host": host, "apps": ["nul"]]])
        _ = try await client.result("Routes.Create", ["app": "nul", "route": Fixture.route("r", path: "/r/*")])
        _ = try await client.result("Releases.Publish", ["app": "nul", "platform": "ios", "version": "1.0"])
        return registry
    }

    private static func status(_ request: [UInt8], port: UInt16) throws -> Int? {
        let connection = try RawConnection(port: port)
        connection.send(request)
        return connection.readResponse().status
    }

    @Test func aNULInTheTargetOrHostIsABadRequest() async throws {
        let registry = try await Self.server()
        defer { registry.shutdown() }
        let port = registry.server.port
        let aasa = "/.well-known/apple-app-site-association"
        func request(_ target: String, host: String = Self.host, lineEnd: String = "\r\n") -> [UInt8] {
            Array("GET \(target) HTTP/1.1\(lineEnd)Host: \(host)\(lineEnd)User-Agent: t\(lineEnd)\(lineEnd)".utf8)
        }
        // The plain requests, and legitimate escapes and queries, are served.
        for ok in [
            request(aasa), request("/healthz"), request("/healthz?a=b&c=%41"), request("/heal%74hz"),
            request(aasa, host: Self.host + ":8080"), request(aasa, lineEnd: "\n"),
        ] {
            #expect(try Self.status(ok, port: port) == 200, "\(String(decoding: ok, as: UTF8.self))")
        }
        let bad: [[UInt8]] = [
            request(aasa + "%00.json"), request("/healthz%00xyz"), request("/healthz?x=1%00"),
            Array("GET /healthz".utf8) + [0] + Array("xyz HTTP/1.1\r\nHost: \(Self.host)\r\n\r\n".utf8),
            Array("GET /healthz".utf8) + [0] + Array(" HTTP/1.1\r\nHost: \(Self.host)\r\n\r\n".utf8),
            Array("GET \(aasa) HTTP/1.1\r\nHost: \(Self.host)".utf8) + [0] + Array(".evil.example\r\n\r\n".utf8),
            Array("GET \(aasa) HTTP/1.1\r\nHost: \(Self.host)".utf8) + [0]
                + Array(".evil.example\r\nUser-Agent: t\r\n\r\n".utf8),
            Array("GET \(aasa) HTTP/1.1\nHost: \(Self.host)".utf8) + [0] + Array("x\nUser-Agent: t\n\n".utf8),
        ]
        for request in bad {
            #expect(try Self.status(request, port: port) == 400, "\(request)")
        }
        // And the server still answers.
        #expect(try Self.status(request(aasa), port: port) == 200)
    }

    @Test func aBatchCannotMakeTheServerSendMoreThanItsBudget() async throws {
        let registry = try await Self.server()
        defer { registry.shutdown() }
        let discover = (0..<100).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"rpc.discover"}"# }
        let body = Data("[\(discover.joined(separator: ","))]".utf8)
        #expect(body.count < 6_000)
        let (data, _) = try await registry.post(body, token: nil)
        let budget = JSONRPCLimits().maxBatchResponseBytes
        #expect(data.count <= budget + 200_000, "a 6 KB batch answered \(data.count) bytes")
        let answers = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(answers.count == 100)
        let exhausted = answers.filter {
            (($0["error"] as? [String: Any])?["data"] as? [String: Any])?["status"] as? String == "RESOURCE_EXHAUSTED"
        }
        let served = answers.filter { $0["result"] != nil }
        #expect(!served.isEmpty && served.count + exhausted.count == 100)
        #expect((exhausted.first?["error"] as? [String: Any])?["code"] as? Int == 8)
        // One call on its own is not limited: the document comes back whole.
        let (single, _) = try await registry.post(Data(discover[0].utf8), token: nil)
        #expect(single.count > 100_000)
        // Writes in a batch over budget keep their answers (their effect happened); later members are refused
        // without running.
        let writes = (0..<3).map {
            #"{"jsonrpc":"2.0","id":"w\#($0)","method":"Apps.Create","params":{"app":{"id":"budget\#($0)"}}}"#
        }
        let mixed = Data("[\((discover.prefix(7) + writes).joined(separator: ","))]".utf8)
        let (mixedData, _) = try await registry.post(mixed)
        let mixedAnswers = try #require(try JSONSerialization.jsonObject(with: mixedData) as? [[String: Any]])
        let client = RegistryClient(baseURL: registry.baseURL, token: TestRegistryServer.adminToken)
        for (index, answer) in mixedAnswers.enumerated() where (answer["id"] as? String)?.hasPrefix("w") == true {
            let created = answer["result"] != nil
            let exists = (try? await client.result("Apps.Get", ["app": "budget\(index - 7)"])) != nil
            #expect(created == exists, "\(answer)")
        }
    }
}
