import Foundation
import HTTPServing
import RegistryService
import RouteCore
import Synchronization
import ThreadShards

/// A version's canOpen table as a plain, cacheable file (`RegistryRoutes`: `GET /canopen/v1/{app}/…`)
/// (ETag, 304, `Cache-Control`), so a CDN can answer the apps that revalidate on every launch.
///
/// The same table `CanOpen.GetTable` answers, byte for byte (its `table` member), with the same ETag, for
/// the same versions: any version of a known app, live or not (a retired version still installed must get
/// its kill switches). Documents are kept per snapshot within `byteBudget`; the 304 of a kept one costs a
/// lookup and no table. Each request thread also keeps the documents it served (`VersionedMemo`, the same
/// objects, at most `perThread`), so a repeated GET takes its thread's lock and none another core takes.
final class CanOpenTableDocuments: Sendable {
    private struct Cache {
        var stamp: UInt64 = 0
        var documents: [ReleaseKey: StaticDocument] = [:]
        var bytes = 0
    }

    /// The most documents one thread keeps (beyond it its table starts over; the shared one still holds them).
    static let perThread = 1024

    /// The most table bytes kept as prebuilt responses at once (beyond it the table cache still spares the
    /// generation; only the response is rebuilt).
    static let byteBudget = 8 << 20

    private let service: RegistryService
    private let cacheControl: String
    private let cache = Mutex(Cache())
    private let threads = VersionedMemo<ReleaseKey, StaticDocument, UInt64>(initial: 0, limit: perThread)

    init(service: RegistryService, cacheControl: String) {
        self.service = service
        self.cacheControl = cacheControl
    }

    /// The answer for the path parameters `{app}`, `{platform}` and `{version}` of the table's route.
    func lookup(app: String, platform: String, version: String) -> DocumentLookup {
        let key: ReleaseKey
        switch Self.key(app: app, platform: platform, version: version) {
        case .success(let parsed): key = parsed
        case .failure(let failure): return failure.lookup
        }
        let stamp = service.snapshots.installCount
        if let kept = threads.value(key, version: stamp) { return .document(kept) }
        if let kept = cache.withLock({ $0.stamp == stamp ? $0.documents[key] : nil }) {
            threads.keep(kept, key, version: stamp)
            return .document(kept)
        }
        let file: GeneratedFile?
        do { file = try service.snapshot.canOpenTables.file(key) } catch {
            // What GetTable would answer as an error (a table over the size limit, say): the same text.
            return .refused(status: error.code.httpStatus, reason: "\(error)\n")
        }
        guard let file else { return .refused(status: 404, reason: "app \(PlainEcho.quoted(key.app)) not found\n") }
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
        threads.keep(document, key, version: stamp)
        return .document(document)
    }

    struct PathError: Error {
        let lookup: DocumentLookup
    }

    /// The release a table's path names; which part is wrong otherwise.
    static func key(app: String, platform: String, version versionText: String) -> Result<ReleaseKey, PathError> {
        guard !app.isEmpty else {
            return .failure(PathError(lookup: .refused(status: 400, reason: "app: must not be empty\n")))
        }
        guard let parsedPlatform = Platform(rawValue: platform) else {
            let known = Platform.allCases.map(\.rawValue).joined(separator: " or ")
            return .failure(
                PathError(
                    lookup: .refused(status: 400, reason: "platform: \(PlainEcho.quoted(platform)) is not \(known)\n")))
        }
        let version: Version
        do { version = try Version(versionText) } catch {
            return .failure(PathError(lookup: .refused(status: 400, reason: "version: \(error)\n")))
        }
        return .success(ReleaseKey(app: app, platform: parsedPlatform, version: version))
    }
}
