import Foundation
import RouteRegistryClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one JSON-RPC call and returns the result's bytes as the server sent them. The CLI prints those
/// bytes for `--json` and decodes them for people; tests substitute a scripted transport.
protocol RegistryTransport {
    /// Calls `method` with a params object; throws `RegistryError` or `ClientError` like `RPCClient`.
    func call(method: String, params: Data) throws -> Data
}

/// The real transport: the shared Swift client, blocking (the CLI has a synchronous `main`).
struct HTTPTransport: RegistryTransport {
    let client: RPCClient

    init(settings: ClientSettings) {
        // One command, one short-lived session: nothing cached or kept between runs (answers to JSON-RPC POSTs
        // are never cacheable, and the registry sets no cookies).
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        client = RPCClient(
            server: settings.server, token: settings.token, session: URLSession(configuration: configuration),
            timeout: 30)
    }

    func call(method: String, params: Data) throws -> Data {
        try client.callRawSync(method: method, paramsJSON: params)
    }
}
