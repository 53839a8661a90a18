import Foundation

/// The files of one host, as served and stored as a revision.
public struct HostFiles: Sendable, Hashable {
    /// The host (lower-case).
    public var host: String
    /// `apple-app-site-association` bytes and ETag.
    public var aasa: GeneratedFile
    /// The document the AASA bytes encode (after any compaction).
    public var aasaDocument: AASAFile
    /// `assetlinks.json` bytes and ETag.
    public var assetlinks: GeneratedFile
    /// Everything lint noticed about this host's rules and files.
    public var lint: [LintFinding]
}

/// A canOpen table and its bytes and ETag.
public struct GeneratedCanOpenTable: Sendable, Hashable {
    /// The table.
    public var table: CanOpenTable
    /// Its canonical bytes and ETag.
    public var file: GeneratedFile
}

/// Everything derived from one registry state.
public struct GeneratedFiles: Sendable {
    /// Per host (aliases included).
    public var hosts: [String: HostFiles]
    /// Per live (app, platform, version).
    public var canOpenTables: [ReleaseKey: GeneratedCanOpenTable]
    /// Every finding of every host, in host order.
    public var lint: [LintFinding] { hosts.keys.sorted().flatMap { hosts[$0]?.lint ?? [] } }
}

/// The single entry point the service calls after every change (and, on a modified registry, for
/// previews): all AASA, assetlinks and canOpen files, deterministic byte for byte.
public enum Generator {
    /// Apple's limit for an uncompressed `apple-app-site-association` file, in bytes.
    public static let aasaSizeLimit = DocumentLinter.sizeLimit

    /// Generates every file of `registry`. Throws `FAILED_PRECONDITION` when a host's AASA stays above
    /// Apple's size limit after semantics-preserving compaction.
    public static func generate(registry: Registry) throws(RegistryError) -> GeneratedFiles {
        let index = RegistryIndex(registry)
        var hosts: [String: HostFiles] = [:]
        for domain in registry.domains {
            let files = try hostFiles(index: index, host: domain.host.lowercased())
            hosts[files.host] = files
        }
        var tables: [ReleaseKey: GeneratedCanOpenTable] = [:]
        let builder = CanOpenTableBuilder(index: index)
        for app in registry.apps {
            for platform in Platform.allCases {
                for version in registry.liveVersions(app: app.id, platform: platform) {
                    let key = ReleaseKey(app: app.id, platform: platform, version: version)
                    if let table = try canOpenTable(builder: builder, key: key) { tables[key] = table }
                }
            }
        }
        return GeneratedFiles(hosts: hosts, canOpenTables: tables)
    }

    /// The canOpen table of any version (live or not), e.g. for `CanOpen.GetTable` on a draft.
    public static func canOpenTable(
        registry: Registry, app: String, platform: Platform, version: Version
    ) throws(RegistryError) -> GeneratedCanOpenTable? {
        try canOpenTable(
            builder: CanOpenTableBuilder(index: RegistryIndex(registry)),
            key: ReleaseKey(app: app, platform: platform, version: version))
    }

    /// The files of one host; throws as `generate` does. Without `ruleLint`, `lint` leaves out the findings
    /// about the rule lists (shadowed and overlapping routes), the costly part on large apps: they change no
    /// byte, and `ruleLint(registry:host:)` computes them when someone will read them.
    public static func hostFiles(registry: Registry, host: String, ruleLint: Bool = true) throws(RegistryError)
        -> HostFiles
    {
        try hostFiles(index: RegistryIndex(registry), host: host.lowercased(), ruleLint: ruleLint)
    }

    /// The rule-list findings of one host, which come first in a full `HostFiles.lint`.
    public static func ruleLint(registry: Registry, host: String) -> [LintFinding] {
        RuleLinter(index: RegistryIndex(registry)).lint(host: host.lowercased())
    }

    static func hostFiles(index: RegistryIndex, host: String, ruleLint: Bool = true) throws(RegistryError)
        -> HostFiles
    {
        guard let (file, legacyLint) = AASAGenerator(index: index).document(host: host),
            let (statements, androidLint) = AssetLinksGenerator(index: index).document(host: host)
        else { throw RegistryError.notFound(.domain(host)) }
        var lint = (ruleLint ? RuleLinter(index: index).lint(host: host) : []) + legacyLint + androidLint
        let (document, bytes, compactionLint) = try fitted(file, host: host)
        lint += compactionLint
        lint += DocumentLinter.lint(host: host, file: document, size: bytes.count)
        return HostFiles(
            host: host, aasa: GeneratedFile(bytes: bytes), aasaDocument: document,
            assetlinks: GeneratedFile(bytes: try encode(statements)), lint: lint)
    }

    /// The document and its bytes, compacted when over the limit.
    static func fitted(_ file: AASAFile, host: String) throws(RegistryError) -> (AASAFile, Data, [LintFinding]) {
        let original = try encode(file)
        if original.count <= aasaSizeLimit { return (file, original, []) }
        var document = Compactor.dropUnreachable(file)
        var bytes = try encode(document)
        if bytes.count > aasaSizeLimit {
            document = Compactor.withoutComments(document)
            bytes = try encode(document)
        }
        guard Compactor.equivalent(original, bytes, file: file, host: host) else {
            throw RegistryError.failedPrecondition(
                "apple-app-site-association for \(host) is \(original.count) bytes, above Apple's limit of "
                    + "\(aasaSizeLimit) bytes, and could not be compacted without changing its meaning")
        }
        guard bytes.count <= aasaSizeLimit else {
            throw RegistryError.failedPrecondition(
                "apple-app-site-association for \(host) is \(bytes.count) bytes after compaction (\(original.count) "
                    + "before), above Apple's limit of \(aasaSizeLimit) bytes: remove or merge routes")
        }
        let finding = LintFinding(
            severity: .warning, code: LintCode.compacted,
            message: "apple-app-site-association for \(host) was compacted from \(original.count) to \(bytes.count) "
                + "bytes to fit Apple's limit of \(aasaSizeLimit) bytes")
        return (document, bytes, [finding])
    }

    static func canOpenTable(builder: CanOpenTableBuilder, key: ReleaseKey) throws(RegistryError)
        -> GeneratedCanOpenTable?
    {
        guard let table = builder.table(app: key.app, platform: key.platform, version: key.version) else { return nil }
        return GeneratedCanOpenTable(table: table, file: GeneratedFile(bytes: try encode(table)))
    }

    private static func encode(_ file: AASAFile) throws(RegistryError) -> Data {
        do { return try file.canonicalJSON() } catch { throw RegistryError.internal() }
    }

    private static func encode<T: Encodable>(_ value: T) throws(RegistryError) -> Data {
        do { return try CanonicalJSON.encode(value) } catch { throw RegistryError.internal() }
    }
}
