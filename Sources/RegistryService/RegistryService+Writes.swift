import Foundation
import RouteCore
import RouteStore

/// What an audited write did besides its own result: the state of every generated file afterwards.
public struct WriteOutcome<Value: Sendable & Codable>: Sendable, Codable {
    public var value: Value
    /// One entry per (host, kind): the latest revision, and whether this write created it.
    public var revisions: [RevisionRef]
    /// Lint of every domain after the write; the rule-list findings only for writes that asked for them.
    public var lint: [LintFinding]
}

extension RegistryService {
    /// The body of a write: its result, the resource before and after for the audit log, and, when the
    /// body knows it, how the registry changed.
    struct Mutation<Value> {
        var value: Value
        var before: (any Encodable)?
        var after: (any Encodable)?
        var change: RegistryChange?
        /// The apps the write touched, for its audit entry (whose tokens see it); nil: derived from the
        /// resource name (`auditApps`).
        var apps: [String]?

        init(
            value: Value, before: (any Encodable)?, after: (any Encodable)?, change: RegistryChange? = nil,
            apps: [String]? = nil
        ) {
            self.value = value
            self.before = before
            self.after = after
            self.change = change
            self.apps = apps
        }
    }

    /// Runs one write as a single transaction: the change, the revisions of every generated file it changes
    /// (their cause: `method`, then `about`, e.g. `Releases.Publish ios 5.12.0`), and its audit entry commit
    /// together or not at all. Then refreshes the snapshot,
    /// so the caller's next read sees its write. `ruleLint` adds the rule-list findings to the outcome's
    /// lint (linting a large app costs more than the rest of a route write, which reports no lint).
    ///
    /// The registry the files are generated from is the snapshot's with the body's `change` applied, when
    /// the snapshot is exactly the state the transaction started from (no other write since): loading the
    /// whole registry on every write made each write cost O(routes), and seeding N routes O(N²).
    func write<Value: Codable & Sendable>(
        _ caller: Caller, method: String, resource: ResourceName, about: String, ruleLint: Bool = false,
        _ body: @escaping (Transaction) throws -> Mutation<Value>
    ) throws(RegistryError) -> WriteOutcome<Value> {
        if let refusal = replica.withLock({ $0 }) {
            throw RegistryError.failedPrecondition(
                "\(method) is a write and \(refusal); send writes to a server on the primary")
        }
        let deadline = caller.deadline ?? .now + options.defaultWriteTimeout
        do {
            return try registrySnapshots.rebuildLock.withLock(until: deadline) {
                () throws(RegistryError) -> WriteOutcome<Value> in
                try writeLocked(
                    caller, method: method, resource: resource, cause: "\(method) \(about)", ruleLint: ruleLint,
                    deadline: deadline, body)
            }
        } catch let error as RegistryError {
            throw error
        } catch {
            throw RegistryError.internal()
        }
    }

    /// `write`; the caller holds `rebuildLock`. A retry of an idempotent write (`caller.idempotencyKey`) is
    /// answered by `Store.write`, which holds the whole of idempotency: it finds the first outcome and
    /// returns it without running the body (or refuses a key reused with other params), and then nothing is
    /// rebuilt.
    private func writeLocked<Value: Codable & Sendable>(
        _ caller: Caller, method: String, resource name: ResourceName, cause: String, ruleLint: Bool,
        deadline: ContinuousClock.Instant, _ body: @escaping (Transaction) throws -> Mutation<Value>
    ) throws(RegistryError) -> WriteOutcome<Value> {
        var afterWrite: SnapshotBuilder.Reuse?
        let writeToken = UUID().uuidString.lowercased()
        let written = try mapped {
            try store.write(
                actor: caller.actor, method: method, resource: name.description, requestID: caller.requestID,
                writeToken: writeToken,
                idempotencyKey: caller.idempotencyKey.map {
                    IdempotencyKey($0, paramsFingerprint: caller.paramsFingerprint)
                }, deadline: deadline
            ) { tx in
                // The write lock is held: no other write can commit until this transaction ends.
                let current = snapshots.current
                let observed = SnapshotBuilder.Observed(try store.audit.head(withTokenOf: current.generation, in: tx))
                let mutation = try body(tx)
                let registry = try registryAfter(mutation.change, state: observed, in: tx)
                let apps = mutation.apps ?? auditApps(name, after: registry)
                // The snapshot of exactly the state this transaction started from serves every file's
                // newest revision: the heads need no query (every revision comes with an audit entry).
                let served = current.generation > 0 && current.identity == observed.state
                let regenerated = try regenerate(
                    registry, cause: cause, ruleLint: ruleLint, lintOf: apps.map(Set.init),
                    served: served ? current.documents : nil, in: tx)
                afterWrite = SnapshotBuilder.Reuse(
                    stateBefore: observed.state, writeToken: writeToken, registry: registry,
                    heads: regenerated.heads, appended: regenerated.appended)
                return WriteResult(
                    WriteOutcome(value: mutation.value, revisions: regenerated.revisions, lint: regenerated.lint),
                    before: try mutation.before.map { try SQLJSON(encoding: $0) },
                    after: try mutation.after.map { try SQLJSON(encoding: $0) }, apps: apps)
            }
        }
        if written.replayed { return written.value }
        do {
            try registrySnapshots.rebuildLocked(
                force: false, reusing: afterWrite, deadline: max(deadline, .now + .seconds(2)))
        } catch {
            // The write committed; other servers and the next poll will catch up.
            options.log("snapshot: refresh after \(method) failed (\(error))")
        }
        return written.value
    }

    /// The apps a write to `resource` touched, as its audit entry records them: the app a resource lies
    /// under, a domain's apps before and after the write, a link's app; nil for anything else (tokens say
    /// their own).
    func auditApps(_ resource: ResourceName, after registry: Registry) -> [String]? {
        func domainApps(_ host: String) -> [String]? {
            let apps = Set(
                (snapshot.registry.domains + registry.domains).filter { $0.host.lowercased() == host }.flatMap(\.apps))
            return apps.isEmpty ? nil : apps.sorted()
        }
        switch resource {
        case .app(let app), .routes(let app), .route(let app, _), .release(let app, _, _), .webhook(let app, _):
            return [app]
        case .domain(let host), .revisions(let host), .revision(let host, _), .links(let host): return domainApps(host)
        case .link(let host, let code): return links.link(domain: host, code: code).map { [$0.app] } ?? domainApps(host)
        case .token: return nil
        }
    }

    /// The registry as `tx` sees it after the body ran: the current snapshot's with `change` applied when the
    /// snapshot is exactly the state the transaction started from (same generation and write token: a
    /// snapshot left over from before a failover can have the generation and still be another state), else
    /// loaded from the database.
    func registryAfter(_ change: RegistryChange?, state: SnapshotBuilder.Observed, in tx: Transaction) throws
        -> Registry
    {
        let current = snapshot
        guard let change, current.generation > 0, current.identity == state.state else {
            return try store.loadRegistry(in: tx)
        }
        var registry = current.registry
        switch change {
        case .nothing:
            break
        case .releases(let app):
            // Only the app's block of releases is read again (the registry holds them in `all`'s order, each
            // app's together); an app's first release, whose block's place is the database's collation to
            // decide, reads them all.
            if let first = registry.releases.firstIndex(where: { $0.app == app }) {
                let end = registry.releases[first...].firstIndex(where: { $0.app != app }) ?? registry.releases.endIndex
                registry.releases.replaceSubrange(
                    first..<end, with: try store.releases.all(app: app, in: tx).map(\.release))
            } else {
                registry.releases = try store.releases.all(in: tx).map(\.release)
            }
        case .route(let app, let route, let position):
            var routes = (registry.routes[app] ?? []).filter { $0.id != route.id }
            routes.insert(route, at: min(max(0, position), routes.count))
            registry.routes[app] = routes
        case .routes(let app, let routes):
            registry.routes[app] = routes.isEmpty ? nil : routes
        case .routeRemoved(let app, let id):
            let routes = (registry.routes[app] ?? []).filter { $0.id != id }
            registry.routes[app] = routes.isEmpty ? nil : routes
        }
        #if DEBUG
            // Debug builds (the tests) prove the shortcut against a full load on every write.
            let loaded = try store.loadRegistry(in: tx)
            assert(registry == loaded, "incremental registry differs from the database after \(change)")
        #endif
        return registry
    }

    /// What `regenerate` found and wrote.
    struct Regenerated {
        /// One entry per (host, kind): the latest revision, and whether this write created it.
        var revisions: [RevisionRef] = []
        /// Lint of the domains asked for.
        var lint: [LintFinding] = []
        /// Every served file's newest revision after the write, and the revisions it appended: what the
        /// snapshot after the write serves, so building it reads no heads again (`SnapshotBuilder.Reuse`).
        var heads: [DocumentKey: RevisionHead] = [:]
        var appended: [DocumentKey: ServedDocument] = [:]
    }

    /// Regenerates every domain's files from the registry as the transaction sees it and appends a revision
    /// for each file whose bytes changed. Throws FAILED_PRECONDITION (rolling the write back) when a file
    /// cannot be generated, e.g. an AASA above Apple's size limit.
    ///
    /// The lint returned is of the domains of `lintOf`'s apps (every domain when nil): a write to one app
    /// reports what it can act on, not every other team's findings, which made each answer grow with the
    /// registry. Only those domains are rule-linted, and a revision records the live versions of its own
    /// domain's apps: a write to one app costs other apps' domains a comparison of their inputs, no more.
    ///
    /// `served`: the documents of a snapshot of the state the transaction started from, when there is one;
    /// the heads of the files they hold are read from it, the others from the database.
    func regenerate(
        _ registry: Registry, cause: String, ruleLint: Bool, lintOf apps: Set<String>?,
        served: [DocumentKey: ServedDocument]? = nil, in tx: Transaction
    ) throws -> Regenerated {
        let index = RegistryIndex(registry)
        let releasesByApp = registrySnapshots.hostFiles.releasesByApp(registry.releases)
        var files: [String: HostFiles] = [:]
        var reported: Set<String> = []
        for host in index.domains.keys {
            let hostApps = index.target(of: host)?.apps ?? []
            let isReported = apps.map { lintOf in hostApps.contains(where: lintOf.contains) } ?? true
            if isReported { reported.insert(host) }
            files[host] = try registrySnapshots.hostFiles.files(
                registry, host: host, index: index, withRuleLint: ruleLint && isReported,
                releasesByApp: releasesByApp)
        }
        registrySnapshots.hostFiles.retain(hosts: Set(files.keys))
        try checkShares(files, registry: registry, index: index, touched: apps)
        var result = Regenerated()
        let hosts = files.keys.sorted()
        let heads = try heads(of: hosts, served: served, in: tx)
        for host in hosts {
            let file = files[host]!
            if reported.contains(host) { result.lint += file.lint }
            var liveVersions: SQLJSON?
            for (kind, generated) in [(DocumentKind.aasa, file.aasa), (.assetlinks, file.assetlinks)] {
                let key = DocumentKey(host: host, kind: kind)
                if let head = heads[key], head.etag == generated.etag {
                    result.revisions.append(
                        RevisionRef(host: host, kind: kind, revision: head.number, etag: head.etag, changed: false))
                    result.heads[key] = head
                    continue
                }
                if liveVersions == nil {
                    liveVersions = try SQLJSON(
                        encoding: LiveVersions(apps: index.target(of: host)?.apps ?? [], releasesByApp: releasesByApp))
                }
                let stored = try store.revisions.append(
                    host: host, kind: kind, bytes: generated.bytes, etag: generated.etag, cause: cause,
                    liveVersions: liveVersions!, in: tx)
                result.revisions.append(
                    RevisionRef(host: host, kind: kind, revision: stored.number, etag: stored.etag, changed: true))
                result.heads[key] = RevisionHead(number: stored.number, etag: stored.etag)
                result.appended[key] = ServedDocument(stored)
            }
        }
        return result
    }
}

extension RegistryService {
    /// The newest revision of each of `hosts`' files: from `served` where it holds both of a host's files,
    /// from the database for the other hosts.
    fileprivate func heads(
        of hosts: [String], served: [DocumentKey: ServedDocument]?, in tx: Transaction
    ) throws -> [DocumentKey: RevisionHead] {
        guard let served else { return try store.revisions.heads(hosts: hosts, in: tx) }
        var heads: [DocumentKey: RevisionHead] = [:]
        var unknown: [String] = []
        for host in hosts {
            let keys = [DocumentKey(host: host, kind: .aasa), DocumentKey(host: host, kind: .assetlinks)]
            guard keys.allSatisfy({ served[$0] != nil }) else {
                unknown.append(host)
                continue
            }
            for key in keys {
                let document = served[key]!
                heads[key] = RevisionHead(number: document.revision, etag: document.etag)
            }
        }
        if !unknown.isEmpty { heads.merge(try store.revisions.heads(hosts: unknown, in: tx)) { $1 } }
        #if DEBUG
            // Debug builds (the tests) prove the snapshot's heads against the database's on every write.
            let stored = try store.revisions.heads(hosts: hosts, in: tx)
            assert(heads == stored, "the snapshot's revision heads differ from the database's")
        #endif
        return heads
    }
}

/// How a write changed the registry, so the service can update its copy instead of reloading it.
enum RegistryChange {
    /// Nothing the documents are generated from changed (a short link was written).
    case nothing
    /// `app`'s releases changed (publish, retire, create): they are reloaded, routes are not.
    case releases(app: String)
    /// `route` of `app` was created or replaced and now sits at 0-based `position`.
    case route(app: String, route: Route, position: Int)
    /// `app`'s routes are now `routes`, in order (a batch changed several).
    case routes(app: String, [Route])
    /// The route `id` of `app` was deleted.
    case routeRemoved(app: String, id: String)
}

/// The live versions a revision was computed from: those of its domain's apps, per app and platform
/// (stored with each revision).
struct LiveVersions: Encodable {
    let apps: [String]
    let releasesByApp: [String: [Release]]

    init(apps: [String], releasesByApp: [String: [Release]]) {
        self.apps = apps
        self.releasesByApp = releasesByApp
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        for app in Set(apps).sorted() {
            var live: [String: [Version]] = [:]
            for release in releasesByApp[app] ?? [] where release.state == .live {
                live[release.platform.rawValue, default: []].append(release.version)
            }
            try container.encode(live.mapValues { $0.sorted().map(\.description) }, forKey: DynamicKey(app))
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
