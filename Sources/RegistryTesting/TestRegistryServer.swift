import Foundation
import RegistryAPI
import RegistryApplication
import HTTPServing
import JSONRPC
import RegistryService
import RouteCore
import RouteStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real registry server for tests: its own database (migrated), the service, and the HTTP daemon on
/// 127.0.0.1 with an ephemeral port, all built and started by the same `RegistryApplication` as `serve`.
/// `adminToken` authenticates as the bootstrap admin.
public final class TestRegistryServer: Sendable {
    public static let adminToken = "test-admin-secret"

    public let database: TestDatabase
    /// The composition root that built and runs this server (the one `serve` uses).
    public let application: RegistryApplication
    public let service: RegistryService
    public let server: RegistryServer
    public let runtime: RegistryRuntime
    /// The delivery watch, when the server was started with one (off by default: tests never reach the
    /// internet; point it at a `StandInDeliveryService`).
    public let delivery: DeliveryWatch?

    /// Starts a server on a fresh database (or on `database`, to run a second server on the same one).
    /// `maxSnapshotAge`, `readOnly` and `runtime` are the server's settings (`routereg serve` flags); `log`
    /// receives the runtime's and service's lines; `signInLimit` the failed sign-in limit (the server's default
    /// unless a suite that sends many bad tokens on purpose loosens it). `console`, `adminSurfaces`,
    /// `requestLog` and `logClientAddress` are `serve`'s web console, `--admin-hosts`/`--metrics-token-file`,
    /// request log and `--log-client-address`.
    public init(
        suite: String, database: TestDatabase? = nil, snapshotFile: URL? = nil,
        maxSnapshotAge: Duration = .seconds(300), readOnly: Bool = false,
        runtime runtimeOptions: RegistryRuntime.Options = RegistryRuntime.Options(), cacheMaxAge: Int = 300,
        signInLimit: SignInLimiter.Policy = SignInLimiter.Policy(),
        delivery deliveryOptions: DeliveryWatch.Options? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }, console: Bool = false,
        adminSurfaces: AdminSurfaces = AdminSurfaces(), requestLog: RequestLog = .silent,
        logClientAddress: Bool = false,
        webhookPrivateHosts: Set<String> = []
    ) throws {
        let database = try database ?? TestPostgres.makeDatabase(suite: suite)
        self.database = database
        application = RegistryApplication(
            configuration: Configuration(
                database: .url(database.url), poolSize: 4,
                service: RegistryService.Options(
                    snapshotFile: snapshotFile, bootstrapAdminSHA256: SHA256.hex(Array(Self.adminToken.utf8)),
                    log: log, readOnly: readOnly, maxSnapshotAge: maxSnapshotAge,
                    webhookPrivateHosts: webhookPrivateHosts),
                runtime: runtimeOptions, delivery: deliveryOptions,
                http: HTTPServerConfiguration(
                    host: "127.0.0.1", port: 0, threadPoolSize: 2, logClientAddress: logClientAddress),
                cacheMaxAge: cacheMaxAge, requestLog: requestLog, console: console, signInLimit: signInLimit,
                adminSurfaces: adminSurfaces, log: log))
        try application.start()
        let parts = application.parts
        service = parts.service
        server = parts.server
        runtime = parts.runtime
        delivery = parts.delivery
    }

    /// The pool the service uses (to inspect or close it).
    public var databasePool: Database { application.parts.pool }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// Stops the application in its one order: HTTP, request log, watch, final click and token-use writes,
    /// monitor, snapshot persistence, pool (the database stays, for `drop()` or a second server).
    public func stop() {
        application.stop()
    }

    /// Stops and releases the database (see `TestDatabase.release()`).
    public func shutdown() {
        stop()
        try? database.release()
    }

    /// Sends one JSON-RPC call and returns the decoded response object (`result` or `error` inside).
    public func call(
        _ method: String, _ params: [String: Any] = [:], token: String? = TestRegistryServer.adminToken,
        headers: [String: String] = [:]
    ) async throws -> [String: Any] {
        let body = try JSONSerialization.data(
            withJSONObject: ["jsonrpc": "2.0", "id": 1, "method": method, "params": params])
        let (data, _) = try await post(body, token: token, headers: headers)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestPostgresError("response is not a JSON object")
        }
        return object
    }

    /// The `result` of a call that must succeed.
    public func result(
        _ method: String, _ params: [String: Any] = [:], token: String? = TestRegistryServer.adminToken
    ) async throws -> [String: Any] {
        let response = try await call(method, params, token: token)
        guard let result = response["result"] as? [String: Any] else {
            throw TestPostgresError("\(method) failed: \(response["error"] ?? response)")
        }
        return result
    }

    /// POSTs raw bytes to /rpc.
    public func post(
        _ body: Data, token: String? = TestRegistryServer.adminToken, headers: [String: String] = [:]
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: baseURL.appendingPathComponent("rpc"))
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return try await send(request)
    }

    /// GETs `path` with an optional `Host` and `If-None-Match`.
    public func get(_ path: String, host: String? = nil, ifNoneMatch: String? = nil) async throws -> (
        Data, HTTPURLResponse
    ) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        return try await send(request)
    }

    /// GETs `path` as a visitor with `userAgent` would, without following a redirect (a short link's 302
    /// is the answer, and its target is off this machine).
    public func visit(_ path: String, host: String, userAgent: String?) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.setValue(host, forHTTPHeaderField: "Host")
        if let userAgent { request.setValue(userAgent, forHTTPHeaderField: "User-Agent") }
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestPostgresError("not an HTTP response") }
        return (data, http)
    }

    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw TestPostgresError("not an HTTP response")
        }
        return (data, http)
    }
}

/// Refuses every redirect, so the 302 itself is the response.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
