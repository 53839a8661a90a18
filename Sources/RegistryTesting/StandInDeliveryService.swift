import Dispatch
import Foundation
import HTTPServing
import Synchronization

/// A local stand-in for Apple's AASA CDN (`GET /a/v1/{host}`) and Google's Digital Asset Links API
/// (`GET /v1/statements:list`), on 127.0.0.1 with an ephemeral port, whose answers a test changes over time:
/// so the delivery watch is tested without reaching the internet.
public final class StandInDeliveryService: Sendable {
    /// What the stand-in answers.
    public enum Behaviour: Sendable, Equatable {
        /// 200 `application/json` with these bytes, an ETag (their hash) and 304 to a matching If-None-Match.
        case serve(Data)
        /// This status, empty body.
        case status(Int)
        /// No answer for this long (then a 200 nobody waits for any more).
        case hang(Duration)
        /// 200 with this many bytes of JSON-looking filler.
        case huge(Int)
    }

    /// One request the stand-in received.
    public struct Request: Sendable {
        public var path: String
        public var query: String
        public var ifNoneMatch: String?
    }

    /// What the stand-in answers per host, and what it was asked.
    private final class State: Sendable {
        let value = Mutex<(aasa: [String: Behaviour], assetLinks: [String: Behaviour], requests: [Request])>(
            ([:], [:], []))
        func withLock<T>(
            _ body: (inout (aasa: [String: Behaviour], assetLinks: [String: Behaviour], requests: [Request])) -> T
        ) -> T {
            value.withLock { body(&$0) }
        }
    }

    private let http: HTTPServer
    private let state: State

    public init() throws {
        let state = State()
        self.state = state
        var router = Router()
        router.get("/a/v1/{host}", label: "cdn") { request in
            let host = request.parameters["host"] ?? ""
            let behaviour = state.withLock { state in
                state.requests.append(
                    Request(path: request.path, query: request.query, ifNoneMatch: request.header("If-None-Match")))
                return state.aasa[host] ?? .status(404)
            }
            return Self.answer(behaviour, request)
        }
        router.get("/v1/statements:list", label: "dal") { request in
            let site = request.queryValue("source.web.site") ?? ""
            let host = site.hasPrefix("https://") ? String(site.dropFirst(8)) : site
            let behaviour = state.withLock { state in
                state.requests.append(
                    Request(path: request.path, query: request.query, ifNoneMatch: request.header("If-None-Match")))
                return state.assetLinks[host] ?? .serve(Data("{\"maxAge\":\"600s\"}".utf8))
            }
            return Self.answer(behaviour, request)
        }
        http = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadPoolSize: 2), router: router,
            log: .silent)
        try http.start()
    }

    /// `http://127.0.0.1:PORT`: the base URL for both `--apple-cdn-url` and `--asset-links-api-url`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(http.port)")! }

    /// What `/a/v1/{host}` answers from now on.
    public func setAASA(_ host: String, _ behaviour: Behaviour) { state.withLock { $0.aasa[host] = behaviour } }

    /// What `statements:list` answers for `https://{host}` from now on.
    public func setAssetLinks(_ host: String, _ behaviour: Behaviour) {
        state.withLock { $0.assetLinks[host] = behaviour }
    }

    /// Every request so far, oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    public func stop() { http.stop() }

    /// Google's answer listing `apps` ((package, SHA-256 fingerprint) pairs) for `host`.
    public static func statements(host: String, apps: [(String, String)]) -> Data {
        let statements = apps.map { app in
            """
            {"source":{"web":{"site":"https://\(host)."}},"relation":"delegate_permission/common.handle_all_urls",\
            "target":{"androidApp":{"packageName":"\(app.0)","certificate":{"sha256Fingerprint":"\(app.1)"}}}}
            """
        }
        return Data("{\"statements\":[\(statements.joined(separator: ","))],\"maxAge\":\"3600s\"}".utf8)
    }

    private static func answer(_ behaviour: Behaviour, _ request: HTTPRequest) -> HTTPAnswer {
        switch behaviour {
        case .serve(let bytes):
            let etag = "\"\(bytes.count)-\(bytes.hashValue & 0xffff_ffff)\""
            if request.header("If-None-Match") == etag {
                return .respond(HTTPResponse(status: 304, headers: [("ETag", etag)]))
            }
            return .respond(
                HTTPResponse(
                    status: 200, body: Array(bytes), contentType: "application/json", headers: [("ETag", etag)]))
        case .status(let status):
            return .respond(HTTPResponse(status: status, body: [], contentType: "text/plain"))
        case .hang(let duration):
            let respond = request.deferral()
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .milliseconds(Int(duration.components.seconds * 1000))
                    + .milliseconds(
                        Int(duration.components.attoseconds / 1_000_000_000_000_000))
            ) {
                respond(HTTPResponse(status: 200, body: Array("{}".utf8), contentType: "application/json"))
            }
            // Stopping the stand-in answers at once (the deferral keeps the first answer only).
            return .later(cancel: { respond(HTTPResponse(status: 503, body: [], contentType: "text/plain")) })
        case .huge(let count):
            var body = Array("{\"applinks\":\"".utf8)
            body += [UInt8](repeating: UInt8(ascii: "x"), count: max(0, count - 16))
            body += Array("\"}".utf8)
            return .respond(HTTPResponse(status: 200, body: body, contentType: "application/json"))
        }
    }
}
