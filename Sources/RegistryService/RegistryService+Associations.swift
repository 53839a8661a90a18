import Foundation
import RouteCore
import RouteStore

extension RegistryService {
    /// The latest document from the snapshot, or an older revision from the database.
    public func association(_ input: API.AssociationsGet.Input) throws(RegistryError) -> API.AssociationsGet.Output {
        let host = input.host.lowercased()
        let kind = input.kind ?? .aasa
        if let number = input.revision {
            guard number >= 1 else { throw RegistryError.invalidArgument(field: "revision", "must be 1 or more") }
            let snapshotDocument = snapshot.document(host: host, kind: kind)
            if let snapshotDocument, snapshotDocument.revision == number { return try Self.output(snapshotDocument) }
            return try Self.output(try storedRevision(host: host, kind: kind, number: number))
        }
        guard let document = snapshot.document(host: host, kind: kind) else {
            throw Self.noDocument(host: host, kind: kind)
        }
        return try Self.output(document)
    }

    /// NOT_FOUND for a host with no document of `kind` (yet): the message names the kind.
    static func noDocument(host: String, kind: DocumentKind) -> RegistryError {
        .notFound("\(ResourceName.revisions(host: host)) (\(kind.rawValue))")
    }

    static func output(_ document: ServedDocument) throws(RegistryError) -> API.AssociationsGet.Output {
        API.AssociationsGet.Output(
            host: document.host, kind: document.kind, revision: document.revision, etag: document.etag,
            cause: document.cause, createTime: Timestamp.string(document.createTime),
            document: try decodeDocument(document.bytes))
    }

    static func decodeDocument(_ bytes: Data) throws(RegistryError) -> JSONValue {
        do { return try JSONValue(json: bytes) } catch { throw RegistryError.internal() }
    }

    private func storedRevision(host: String, kind: DocumentKind, number: Int) throws(RegistryError) -> ServedDocument {
        try mapped {
            guard
                let stored = try store.read({ tx in
                    try store.revisions.get(host: host, kind: kind, number: number, in: tx)
                })
            else {
                throw RegistryError.notFound("\(ResourceName.revision(host: host, number: number)) (\(kind.rawValue))")
            }
            return ServedDocument(stored)
        }
    }

    public func listRevisions(_ input: API.AssociationsListRevisions.Input) throws(RegistryError)
        -> API.AssociationsListRevisions.Output
    {
        let host = input.host.lowercased()
        return try mapped {
            let result = try store.read { tx in
                if try store.domains.get(host, in: tx) == nil { throw RegistryError.notFound(.domain(host)) }
                return try store.revisions.list(host: host, kind: input.kind ?? .aasa, input.page, in: tx)
            }
            return API.AssociationsListRevisions.Output(result) {
                RevisionSummary(
                    revision: $0.number, etag: $0.etag, cause: $0.cause, createTime: Timestamp.string($0.createTime))
            }
        }
    }

    public func diff(_ input: API.AssociationsDiff.Input) throws(RegistryError) -> DocumentDiff {
        let host = input.host.lowercased()
        let kind = input.kind ?? .aasa
        let from = try storedRevision(host: host, kind: kind, number: input.fromRevision)
        let to = try storedRevision(host: host, kind: kind, number: input.toRevision)
        do { return try DocumentDiff(from: from.bytes, to: to.bytes, assetlinks: kind == .assetlinks) } catch {
            throw RegistryError.internal()
        }
    }

    /// A dry run of a publish or retire: the documents it would produce, their diff and lint. Writes nothing.
    public func preview(_ input: API.AssociationsPreview.Input) throws(RegistryError) -> API.AssociationsPreview.Output
    {
        let current = snapshot
        var registry = current.registry
        guard registry.apps.contains(where: { $0.id == input.app }) else {
            throw RegistryError.notFound(.app(input.app))
        }
        let state: ReleaseState = input.action == .publish ? .live : .retired
        if let index = registry.releases.firstIndex(where: {
            $0.app == input.app && $0.platform == input.platform && $0.version == input.version
        }) {
            registry.releases[index].state = state
        } else if input.action == .publish {
            registry.releases.append(
                Release(app: input.app, platform: input.platform, version: input.version, state: .live))
        } else {
            throw RegistryError.notFound(.release(app: input.app, platform: input.platform, version: input.version))
        }
        var documents: [API.AssociationsPreview.Document] = []
        var lint: [LintFinding] = []
        var generated: [String: HostFiles] = [:]
        for domain in registry.domains.sorted(by: { $0.host < $1.host }) {
            let host = domain.host.lowercased()
            let files = try Generator.hostFiles(registry: registry, host: host)
            generated[host] = files
            lint += files.lint
            for (kind, file) in [(DocumentKind.aasa, files.aasa), (.assetlinks, files.assetlinks)] {
                let served = current.document(host: host, kind: kind)
                let diff: DocumentDiff
                do {
                    diff = try DocumentDiff(
                        from: served?.bytes ?? Self.emptyDocument(kind), to: file.bytes, assetlinks: kind == .assetlinks
                    )
                } catch { throw RegistryError.internal() }
                documents.append(
                    API.AssociationsPreview.Document(
                        host: host, kind: kind, etag: file.etag, changed: served?.etag != file.etag,
                        document: try Self.decodeDocument(file.bytes), diff: diff))
            }
        }
        // Refused as the write itself would be: the app's section past its share of a shared domain.
        try checkShares(generated, registry: registry, index: RegistryIndex(registry), touched: [input.app])
        return API.AssociationsPreview.Output(documents: documents, lint: lint)
    }

    private static func emptyDocument(_ kind: DocumentKind) -> Data {
        Data((kind == .aasa ? #"{"applinks":{"details":[]}}"# : "[]").utf8)
    }

    /// Long poll: completes when the document's ETag differs from `ifNoneMatch`, or after the timeout.
    /// Holds no thread while waiting.
    public func watch(
        _ input: API.AssociationsWatch.Input,
        complete: @escaping @Sendable (Result<API.AssociationsWatch.Output, RegistryError>) -> Void
    ) {
        let host = input.host.lowercased()
        let kind = input.kind ?? .aasa
        let timeout = input.timeoutMs ?? 30_000
        guard (0...60_000).contains(timeout) else {
            complete(.failure(.invalidArgument(field: "timeoutMs", "must be between 0 and 60000")))
            return
        }
        guard snapshot.registry.domains.contains(where: { $0.host.lowercased() == host }) else {
            complete(.failure(.notFound(.domain(host))))
            return
        }
        let ifNoneMatch = input.ifNoneMatch
        let accepted = snapshots.watch(
            DocumentKey(host: host, kind: kind), etag: ifNoneMatch, timeout: .milliseconds(timeout)
        ) {
            document in
            guard let document else {
                complete(.failure(Self.noDocument(host: host, kind: kind)))
                return
            }
            let notModified = document.etag == ifNoneMatch
            do throws(RegistryError) {
                complete(
                    .success(
                        API.AssociationsWatch.Output(
                            host: host, kind: kind, revision: document.revision, etag: document.etag,
                            notModified: notModified,
                            document: notModified ? nil : try Self.decodeDocument(document.bytes))))
            } catch {
                complete(.failure(error))
            }
        }
        if !accepted {
            complete(.failure(.unavailable("too many long polls are waiting; retry with backoff")))
        }
    }
}
