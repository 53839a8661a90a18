import Foundation
import RegistryService
import RouteCore
import Synchronization

/// `GET /canopen/v1/{app}/{platform}/{version}.json`: a version's canOpen table as a plain, cacheable file
/// (ETag, 304, `Cache-Control`), so a CDN can answer the apps that revalidate on every launch.
///
/// The same table `CanOpen.GetTable` answers, byte for byte (its `table` member), with the same ETag, for
/// the same versions: any version of a known app, live or not (a retired version still installed must get
/// its kill switches). Documents are kept per snapshot within `byteBudget`; the 304 of a kept one costs a
/// lookup and no table.
final class CanOpenTableDocuments: Sendable {
    /// The path prefix the documents live under.
    static let prefix = "/canopen/v1/"

    private struct Cache {
        var stamp: UInt64 = 0
        var documents: [ReleaseKey: StaticDocument] = [:]
        var bytes = 0
    }

    /// The most table bytes kept as prebuilt responses at once (beyond it the table cache still spares the
    /// generation; only the response is rebuilt).
    static let byteBudget = 8 << 20

    private let service: RegistryService
    private let cacheControl: String
    private let cache = Mutex(Cache())

    init(service: RegistryService, cacheControl: String) {
        self.service = service
        self.cacheControl = cacheControl
    }

    /// The answer for a path under `prefix`.
    func lookup(path: String) -> DocumentLookup {
        let key: ReleaseKey
        switch Self.parse(path) {
        case .success(let parsed): key = parsed
        case .failure(let failure): return failure.lookup
        }
        let stamp = service.snapshots.installCount
        if let kept = cache.withLock({ $0.stamp == stamp ? $0.documents[key] : nil }) { return .document(kept) }
        let file: GeneratedFile?
        do { file = try service.snapshot.canOpenTables.file(key) } catch {
            // What GetTable would answer as an error (a table over the size limit, say): the same text.
            return .refused(status: error.code == .invalidArgument ? 400 : 500, reason: "\(error)\n")
        }
        guard let file else { return .refused(status: 404, reason: "app \"\(key.app)\" not found\n") }
        let document = StaticDocument(
            bytes: Array(file.bytes), contentType: "application/json", etag: file.etag, cacheControl: cacheControl)
        cache.withLock { cache in
            if stamp > cache.stamp { cache = Cache(stamp: stamp) }
            guard stamp == cache.stamp, file.bytes.count <= Self.byteBudget else { return }
            // Any keys will do to make room: the budget bounds memory, the table cache keeps the bytes.
            while cache.bytes + file.bytes.count > Self.byteBudget, let victim = cache.documents.first {
                cache.documents[victim.key] = nil
                cache.bytes -= victim.value.bytes.count
            }
            if cache.documents.updateValue(document, forKey: key) == nil { cache.bytes += file.bytes.count }
        }
        return .document(document)
    }

    struct PathError: Error {
        let lookup: DocumentLookup
    }

    /// `{app}/{platform}/{version}.json` after the prefix; which part is wrong otherwise.
    static func parse(_ path: String) -> Result<ReleaseKey, PathError> {
        let usage = "expected /canopen/v1/{app}/{platform}/{version}.json"
        guard path.hasPrefix(prefix) else { return .failure(PathError(lookup: .notFound)) }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasSuffix(".json") else {
            return .failure(PathError(lookup: .refused(status: 404, reason: "not found: \(usage)\n")))
        }
        let app = String(parts[0])
        guard !app.isEmpty else {
            return .failure(PathError(lookup: .refused(status: 400, reason: "app: must not be empty\n")))
        }
        guard let platform = Platform(rawValue: String(parts[1])) else {
            let known = Platform.allCases.map(\.rawValue).joined(separator: " or ")
            return .failure(
                PathError(
                    lookup: .refused(status: 400, reason: "platform: \"\(parts[1].prefix(40))\" is not \(known)\n")))
        }
        let versionText = String(parts[2].dropLast(".json".count))
        let version: Version
        do { version = try Version(versionText) } catch {
            return .failure(PathError(lookup: .refused(status: 400, reason: "version: \(error)\n")))
        }
        return .success(ReleaseKey(app: app, platform: platform, version: version))
    }
}
