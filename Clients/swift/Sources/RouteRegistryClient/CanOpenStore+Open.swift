import Foundation
import RouteMatching

extension CanOpenStore {
    /// The one entry point for every URL the app is handed: universal links, custom schemes, notification
    /// payloads, quick actions, widgets, in-app messages. Decides it as `route(_:)` does, and first resolves a
    /// short link (a code on one of the app's link domains, which this version opens) with `Links.Resolve`:
    ///
    /// - within `shortLinkTimeout`, the resolution kept on disk for next time (and used without asking for
    ///   `shortLinkCacheLifetime`);
    /// - its target decided by the table like any link, with the link's own minimum version applied on top:
    ///   a version below it gets `unsupported_version` with `supportedSince`;
    /// - registry unreachable or late, nothing cached: the short URL plus the fallback marker opens in the
    ///   browser, where the registry's landing page offers the app, the store and the web.
    ///
    /// Never throws and never waits longer than `shortLinkTimeout`; every other URL is answered locally.
    public func open(_ url: URL, from source: LinkSource) async -> LinkOpening {
        let scheme = url.scheme?.lowercased() ?? ""
        let isWeb = LinkURL.isWebScheme(scheme)
        if !isWeb, !managesScheme(scheme) {
            return LinkOpening(source: source, url: url, decision: decide(url), route: .passThrough)
        }
        let decision = decide(url)
        guard let key = shortLinkKey(url, decision: decision), let version else {
            var route = linkRoute(for: decision, url: url)
            // The app's own surfaces may send a web link the table does not know to the browser: the system
            // did not route it here, so it cannot route it back.
            if route == .ignore, decision.decision == .notAssociated, isWeb, !source.isSystemRouted {
                route = .openInBrowser(url)
            }
            return LinkOpening(source: source, url: url, decision: decision, route: route)
        }
        if let entry = shortLinks.entry(key, version: version, fresh: true) {
            return opening(entry.resolution, source: source, url: url, resolution: .cache)
        }
        do {
            let client = self.client
            let platform = self.platform
            let resolved = try await Deadline.run(seconds: shortLinkTimeout) {
                try await client.resolveLink(url: key, platform: platform, version: version)
            }
            guard resolved.app == app else {
                return browser(url, source: source, resolution: .otherApp)
            }
            shortLinks.store(key, resolved, version: version)
            return opening(resolved, source: source, url: url, resolution: .server)
        } catch let error as RegistryError where error.code == .notFound {
            shortLinks.remove(key)
            return browser(url, source: source, resolution: .notFound)
        } catch {
            if let stale = shortLinks.entry(key, version: version, fresh: false) {
                return opening(stale.resolution, source: source, url: url, resolution: .cache)
            }
            return browser(url, source: source, resolution: .unavailable)
        }
    }

    /// The app's link domains, from the table in use (its hosts marked `links`): the hosts whose paths are
    /// short links. Empty without a table.
    public var linkDomains: Set<String> {
        guard let table = state.withLock({ $0.compiled?.table }) else { return [] }
        return Set(table.domains.filter { $0.links == true }.map { $0.name.lowercased() })
    }

    /// The decision for a resolved short link: the table's for its target, the link's own minimum on top.
    func decideTarget(_ resolution: ShortLinkResolution) -> Decision {
        var decision = decide(resolution.target)
        if decision.decision == .openInApp, let minimum = resolution.linkMinimum, let version, version < minimum {
            let policy = state.withLock { $0.compiled?.table.fallback } ?? defaultFallback
            decision = Decision(
                decision: .openInBrowser, reason: .unsupportedVersion, route: decision.route,
                fallbackUrl: FallbackURL.make(resolution.target, policy: policy), supportedSince: minimum.canonical)
        }
        return decision
    }

    /// `https://{link domain}/{code}` when `url` is a short link this version opens itself: one path segment
    /// on a host the table marks `links`, decided `open_in_app` (by the link domain's route). Nil otherwise:
    /// an older version, told by its table that it cannot, sends the link to the browser's landing page.
    func shortLinkKey(_ url: URL, decision: Decision) -> String? {
        guard decision.decision == .openInApp, let scheme = url.scheme?.lowercased(), scheme == "https",
            let host = url.host?.lowercased(), linkDomains.contains(host)
        else { return nil }
        let code = url.path.drop { $0 == "/" }
        guard !code.isEmpty, !code.contains("/") else { return nil }
        return "https://\(host)/\(code)"
    }

    private func opening(
        _ resolved: ShortLinkResolution, source: LinkSource, url: URL, resolution: LinkOpening.Resolution
    ) -> LinkOpening {
        let decision = decideTarget(resolved)
        let target = URL(string: resolved.target) ?? url
        return LinkOpening(
            source: source, url: url, decision: decision, route: linkRoute(for: decision, url: target),
            resolution: resolution, shortLink: resolved)
    }

    /// The short URL in the browser with the fallback marker: the registry's landing page, not the app again.
    private func browser(_ url: URL, source: LinkSource, resolution: LinkOpening.Resolution) -> LinkOpening {
        let policy = state.withLock { $0.compiled?.table.fallback } ?? defaultFallback
        let fallback = FallbackURL.make(url.absoluteString, policy: policy)
        let decision = Decision(decision: .openInBrowser, reason: .noRoute, fallbackUrl: fallback)
        return LinkOpening(
            source: source, url: url, decision: decision,
            route: URL(string: fallback).map(LinkRoute.openInBrowser) ?? .ignore, resolution: resolution)
    }
}

/// A hard deadline for one async call: the caller gets its answer, or `ClientError.timedOut` once the
/// deadline passes, whichever comes first; the late call is cancelled and its answer dropped. (URLSession's
/// `timeoutInterval` bounds the time between packets, not the call.) The timer runs on a Dispatch queue, not
/// the cooperative pool, so work blocking that pool does not postpone it.
enum Deadline {
    static func run<T: Sendable>(
        seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let slot = Locked<CheckedContinuation<T, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                slot.withLock { $0 = continuation }
                let work = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await body()) } catch { result = .failure(error) }
                    slot.withLock { $0.take() }?.resume(with: result)
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) {
                    guard let late = slot.withLock({ $0.take() }) else { return }
                    work.cancel()
                    late.resume(throwing: ClientError.timedOut)
                }
            }
        } onCancel: {
            slot.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
