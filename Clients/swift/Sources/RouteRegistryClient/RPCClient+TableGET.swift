import Foundation
import RouteMatching

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RPCClient {
    /// A version's canOpen table by the cacheable `GET <server>/canopen/v1/{app}/{platform}/{version}.json`
    /// (a CDN in front of the registry can answer it), revalidated with `If-None-Match`.
    ///
    /// The same answer as `canOpenTable(app:platform:version:ifNoneMatch:)`: `notModified` and no table
    /// on a 304. A registry older than the endpoint (a 404 that is not a table's) is asked through
    /// `CanOpen.GetTable` instead; an unknown app is then that method's `NOT_FOUND`.
    public func canOpenTableByGET(
        app: String, platform: Platform, version: Version, ifNoneMatch: String? = nil
    ) async throws -> CanOpenTableAnswer {
        var request = URLRequest(url: Self.tableURL(server: server, app: app, platform: platform, version: version))
        request.timeoutInterval = timeout
        // Revalidation is ours (If-None-Match with the ETag we hold): URLSession's cache must not answer.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let body: Data
        let response: HTTPURLResponse
        do {
            let (data, answer) = try await session.data(for: request)
            guard let http = answer as? HTTPURLResponse else {
                throw ClientError.invalidResponse(reason: "not an HTTP response")
            }
            (body, response) = (data, http)
        } catch let error as ClientError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error)
        }
        let etag = response.value(forHTTPHeaderField: "ETag")
        switch response.statusCode {
        case 304:
            guard let etag = etag ?? ifNoneMatch else {
                throw ClientError.invalidResponse(reason: "304 without an ETag")
            }
            return CanOpenTableAnswer(etag: etag, notModified: true, table: nil)
        case 200:
            let table: CanOpenTable
            do { table = try JSONDecoder().decode(CanOpenTable.self, from: body) } catch {
                throw ClientError.invalidResponse(reason: "the table is not a canOpen table")
            }
            // A proxy that dropped the ETag: the registry's is the SHA-256 of these canonical bytes.
            let tag = try etag ?? table.file().etag
            return CanOpenTableAnswer(etag: tag, notModified: false, table: table)
        case 404 where !(response.value(forHTTPHeaderField: "Content-Type") ?? "").hasPrefix("application/json"):
            return try await canOpenTable(app: app, platform: platform, version: version, ifNoneMatch: ifNoneMatch)
        default:
            let reason = String(decoding: body.prefix(200), as: UTF8.self)
            if response.statusCode == 400 {
                throw RegistryError(.invalidArgument, reason.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            throw ClientError.httpStatus(response.statusCode)
        }
    }

    /// `<server>/canopen/v1/{app}/{platform}/{version}.json`, the app ID percent-encoded as one segment.
    static func tableURL(server: URL, app: String, platform: Platform, version: Version) -> URL {
        var segment = CharacterSet.urlPathAllowed
        segment.remove("/")
        let encoded = app.addingPercentEncoding(withAllowedCharacters: segment) ?? app
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: "\(base)/canopen/v1/\(encoded)/\(platform.rawValue)/\(version).json")!
    }
}
