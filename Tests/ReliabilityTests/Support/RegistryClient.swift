import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// JSON-RPC and GET calls to a registry at `baseURL` (a child process or an in-process server).
struct RegistryClient: Sendable {
    let baseURL: URL
    let token: String?

    init(baseURL: URL, token: String? = ServerProcess.adminToken) {
        self.baseURL = baseURL
        self.token = token
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    /// One call; the whole response object (`result` or `error`) and the HTTP status.
    func call(_ method: String, _ params: [String: Any] = [:]) async throws -> (object: [String: Any], status: Int) {
        let body = try JSONSerialization.data(
            withJSONObject: ["jsonrpc": "2.0", "id": 1, "method": method, "params": params])
        var request = URLRequest(url: baseURL.appendingPathComponent("rpc"))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await Self.session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ReliabilityError("\(method): response is not a JSON object (HTTP \(status))")
        }
        return (object, status)
    }

    /// The result of a call that must succeed.
    func result(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let (object, _) = try await call(method, params)
        guard let result = object["result"] as? [String: Any] else {
            throw ReliabilityError("\(method) failed: \(object["error"] ?? object)")
        }
        return result
    }

    /// GETs `path` with an optional `Host` header; body and HTTP response.
    func get(_ path: String, host: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        let (data, response) = try await Self.session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ReliabilityError("not an HTTP response") }
        return (data, http)
    }

    /// Every item of a paged list method (`key` names the array), following `nextPageToken`.
    func all(_ method: String, _ params: [String: Any], key: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var params = params
        params["pageSize"] = 1000
        while true {
            let page = try await result(method, params)
            items += page[key] as? [[String: Any]] ?? []
            guard let next = page["nextPageToken"] as? String, !next.isEmpty else { return items }
            params["pageToken"] = next
        }
    }
}
