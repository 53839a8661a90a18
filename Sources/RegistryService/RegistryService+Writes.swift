import Foundation
import RouteCore
import RouteStore

/// What an audited write did besides its own result: the state of every generated file afterwards.
public struct WriteOutcome<Value: Sendable>: Sendable {
    public var value: Value
    /// One entry per (host, kind): the latest revision, and whether this write created it.
    public var revisions: [RevisionRef]
    /// Lint of every domain's rules after the write.
    public var lint: [LintFinding]
}

extension RegistryService {
    /// The body of a write: its result, and the resource before and after for the audit log.
    struct Mutation<Value> {
        var value: Value
        var before: (any Encodable)?
        var after: (any Encodable)?
    }

    /// Runs one write as a single transaction: the change, the revisions of every generated file it changes
    /// (caused by `cause`), and its audit entry commit together or not at all. Then refreshes the snapshot,
    /// so the caller's next read sees its write.
    func write<Value: Sendable>(
        _ caller: Caller, method: String, resource: String, cause: String,
        _ body: @escaping (Transaction) throws -> Mutation<Value>
    ) throws(RegistryError) -> WriteOutcome<Value> {
        let outcome: WriteOutcome<Value> = try mapped {
            try store.write(actor: caller.actor, method: method, resource: resource, requestID: caller.requestID) {
                tx in
                let mutation = try body(tx)
                let (revisions, lint) = try regenerate(cause: cause, in: tx)
                return WriteResult(
                    WriteOutcome(value: mutation.value, revisions: revisions, lint: lint),
                    before: try mutation.before.map { try SQLJSON(encoding: $0) },
                    after: try mutation.after.map { try SQLJSON(encoding: $0) })
            }
        }
        do { try refreshSnapshot() } catch {
            // The write committed; other servers and the next notification will catch up.
            options.log("snapshot: refresh after \(method) failed (\(error))")
        }
        return outcome
    }

    /// Regenerates every domain's files from the registry as the transaction sees it and appends a revision
    /// for each file whose bytes changed. Throws FAILED_PRECONDITION (rolling the write back) when a file
    /// cannot be generated, e.g. an AASA above Apple's size limit.
    func regenerate(cause: String, in tx: Transaction) throws -> ([RevisionRef], [LintFinding]) {
        let registry = try store.loadRegistry(in: tx)
        var files: [String: HostFiles] = [:]
        for domain in registry.domains {
            let host = domain.host.lowercased()
            files[host] = try Generator.hostFiles(registry: registry, host: host)
        }
        var refs: [RevisionRef] = []
        var lint: [LintFinding] = []
        for host in files.keys.sorted() {
            let file = files[host]!
            lint += file.lint
            for (kind, generated) in [(RevisionKind.aasa, file.aasa), (.assetlinks, file.assetlinks)] {
                let latest = try store.revisions.latest(host: host, kind: kind, in: tx)
                let documentKind: DocumentKind = kind == .aasa ? .aasa : .assetlinks
                if let latest, latest.etag == generated.etag {
                    refs.append(
                        RevisionRef(
                            host: host, kind: documentKind, revision: latest.number, etag: latest.etag, changed: false))
                    continue
                }
                let stored = try store.revisions.append(
                    host: host, kind: kind, bytes: generated.bytes, etag: generated.etag, cause: cause,
                    liveVersions: try SQLJSON(encoding: LiveVersions(registry)), in: tx)
                refs.append(
                    RevisionRef(
                        host: host, kind: documentKind, revision: stored.number, etag: stored.etag, changed: true))
            }
        }
        return (refs, lint)
    }
}

/// The live versions a revision was computed from, per app and platform (stored with each revision).
struct LiveVersions: Encodable {
    let registry: Registry

    init(_ registry: Registry) { self.registry = registry }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        for app in registry.apps.map(\.id).sorted() {
            var platforms: [String: [String]] = [:]
            for platform in Platform.allCases {
                let versions = registry.liveVersions(app: app, platform: platform)
                if !versions.isEmpty { platforms[platform.rawValue] = versions.map(\.description) }
            }
            try container.encode(platforms, forKey: DynamicKey(app))
        }
    }
}

/// A coding key made at run time.
struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
