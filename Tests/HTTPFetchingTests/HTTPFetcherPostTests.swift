import Foundation
import HTTPFetching
import HTTPServing
import Synchronization
import Testing

/// POSTs as webhooks send them, and the guard that keeps a fetch off internal addresses, against a real
/// libmicrohttpd server on loopback.
@Suite struct HTTPFetcherPostTests {
    final class Seen: Sendable {
        let bodies = Mutex<[(String, [UInt8], String?)]>([])
    }

    static func server(_ seen: Seen) throws -> HTTPServer {
        var router = Router()
        router.post("/in", label: "in") { request in
            seen.bodies.withLock { $0.append((request.method, request.body, request.header("X-Sign"))) }
            return .respond(.text(202, "taken\n"))
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router, log: .silent)
        try server.start()
        return server
    }

    @Test func aPostCarriesItsBodyAndHeaders() throws {
        let seen = Seen()
        let server = try Self.server(seen)
        defer { server.stop() }
        let body = Data(#"{"events":[1,2,3]}"#.utf8)
        let answer = try HTTPFetcher().get(
            HTTPFetcher.Request(
                url: URL(string: "http://127.0.0.1:\(server.port)/in")!,
                headers: ["Content-Type": "application/json", "X-Sign": "t=1,v1=ab"], timeout: .seconds(10),
                maxBytes: 1024, body: body)
        ).get()
        #expect(answer.status == 202)
        let got = seen.bodies.withLock { $0 }
        #expect(got.count == 1 && got.first?.0 == "POST" && got.first?.1 == Array(body) && got.first?.2 == "t=1,v1=ab")
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func internalAddressesAreRefusedWhenAsked(host: String) throws {
        let seen = Seen()
        let server = try Self.server(seen)
        defer { server.stop() }
        let request = HTTPFetcher.Request(
            url: URL(string: "http://\(host):\(server.port)/in")!, timeout: .seconds(10), maxBytes: 1024,
            body: Data("x".utf8), publicAddressesOnly: true)
        switch HTTPFetcher().get(request) {
        case .success(let answer): Issue.record("\(host) was reached: \(answer.status)")
        case .failure(let failure): #expect(failure != .timeout, "\(failure)")
        }
        #expect(seen.bodies.withLock { $0.isEmpty }, "nothing reached the server")
    }
}
