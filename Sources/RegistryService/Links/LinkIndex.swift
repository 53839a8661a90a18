import Foundation
import RouteCore
import RouteStore
import Synchronization

/// What a click needs first: whether the link sends anyone anywhere, and the keys to what was prepared
/// for it. Read without building the link.
public struct LinkHit: Sendable, Hashable {
    public var app: String
    public var slot: Int32
    public var changeID: Int64
    /// Seconds since 1970 when it stops working; infinity when it does not.
    var expires: Double
    var deleted: Bool
    var disabled: Bool

    /// Whether a visitor is sent anywhere at `now`.
    public func isLive(at now: Date) -> Bool { !deleted && !disabled && now.timeIntervalSince1970 < expires }
}

/// A link as the index holds it: what a click or `Links.Resolve` needs, nothing of its metadata.
public struct IndexedLink: Sendable, Hashable {
    public var link: ShortLink
    public var app: String
    public var expiresAt: Date?
    public var deleted: Bool
    /// Its place in the order of link writes: a newer write of the link has a greater one.
    public var changeID: Int64
    /// The link's number in this process's index, the same for every write of it: a cheap key for what
    /// is kept per link (prepared answers).
    public var slot: Int32

    /// Whether a visitor is sent anywhere at `now`.
    public func isLive(at now: Date) -> Bool {
        !deleted && link.disabled != true && (expiresAt.map { now < $0 } ?? true)
    }
}

/// Every short link in memory, by domain and code, so a click is answered without the database.
///
/// Kept apart from the snapshot: a link write changes nothing the documents are generated from, so it
/// updates this index alone (the links written since the last change id it saw), never the whole
/// snapshot. Compact, since a company's links number in the millions: per link a code, a target, its app
/// and expiry, and a shared box only for the links that have more (a preview, overrides, a desktop URL).
/// Lookups take one lock, held for two dictionary reads.
public final class LinkIndex: Sendable {
    /// What most links have beyond a target: nothing. The rest share this box.
    private final class Extras: Sendable {
        let desktopUrl: String?
        let preview: LinkPreview?
        let ios: LinkPlatformOptions?
        let android: LinkPlatformOptions?
        let skipLanding: Bool?
        let expiresText: String?
        let utm: LinkCampaign?
        let maxClicks: Int?

        init(_ link: ShortLink) {
            desktopUrl = link.desktopUrl
            preview = link.preview
            ios = link.ios
            android = link.android
            skipLanding = link.skipLanding
            expiresText = link.expiresAt
            utm = link.utm
            maxClicks = link.maxClicks
        }

        static func of(_ link: ShortLink) -> Extras? {
            link.desktopUrl == nil && link.preview == nil && link.ios == nil && link.android == nil
                && link.skipLanding == nil && link.expiresAt == nil && link.utm == nil && link.maxClicks == nil
                ? nil : Extras(link)
        }
    }

    private struct Entry {
        var target: String
        var app: String
        var extras: Extras?
        /// Seconds since 1970 when it stops working; infinity when it does not.
        var expires: Double
        var changeID: Int64
        var deleted: Bool
        var disabled: Bool
        var slot: Int32
    }

    private struct State {
        /// Domain → code → link: a short code is stored inline, with no allocation of its own.
        var domains: [String: [String: Entry]] = [:]
        var count = 0
        /// How many held links have a click cap (`maxClicks`): the caps are refreshed only while any do.
        var capped = 0
        /// The slot of the next link not held yet.
        var nextSlot: Int32 = 0
        /// The newest `change_id` applied.
        var seen: Int64 = 0
    }

    private let state = Mutex(State())
    private let loadedOnce = Atomic<Bool>(false)
    private let changes = Atomic<UInt64>(0)

    public init() {}

    /// Whether a catch-up has read the database once (every link written until then is held).
    var loaded: Bool { loadedOnce.load(ordering: .acquiring) }

    /// What a click on `code` on `domain` needs first, deleted or expired links included: one lock, two
    /// dictionary reads, nothing built.
    public func hit(domain: String, code: String) -> LinkHit? {
        guard let entry = state.withLock({ $0.domains[domain]?[code] }) else { return nil }
        return LinkHit(
            app: entry.app, slot: entry.slot, changeID: entry.changeID, expires: entry.expires, deleted: entry.deleted,
            disabled: entry.disabled)
    }

    /// The link of `code` on `domain`, deleted or expired ones included (the caller decides what it shows).
    public func link(domain: String, code: String) -> IndexedLink? {
        guard let entry = state.withLock({ $0.domains[domain]?[code] }) else { return nil }
        let extras = entry.extras
        return IndexedLink(
            link: ShortLink(
                domain: domain, code: code, target: entry.target, desktopUrl: extras?.desktopUrl,
                preview: extras?.preview, ios: extras?.ios, android: extras?.android,
                expiresAt: extras?.expiresText, skipLanding: extras?.skipLanding, utm: extras?.utm,
                disabled: entry.disabled ? true : nil, maxClicks: extras?.maxClicks),
            app: entry.app, expiresAt: entry.expires.isFinite ? Date(timeIntervalSince1970: entry.expires) : nil,
            deleted: entry.deleted, changeID: entry.changeID, slot: entry.slot)
    }

    /// Changes whenever a link does: caches of what the index answered check it with one atomic load. A
    /// lookup made after reading it sees that change or a newer one.
    public var version: UInt64 { changes.load(ordering: .acquiring) }

    /// Whether any live link held has a click cap.
    public var hasCapped: Bool { state.withLock { $0.capped > 0 } }

    /// How many links are held (deleted ones included).
    public var count: Int { state.withLock { $0.count } }

    /// The newest change applied.
    var seen: Int64 { state.withLock { $0.seen } }

    /// Applies links read from the database (newer changes replace older ones).
    func apply(_ changed: [LinkIndexRow]) {
        guard !changed.isEmpty else { return }
        state.withLock { state in
            for stored in changed {
                let link = stored.link
                let held = state.domains[link.domain]?[link.code]
                if let held, held.changeID > stored.changeID { continue }
                if let held, held.extras?.maxClicks != nil, !held.deleted { state.capped -= 1 }
                if link.maxClicks != nil, !stored.deleted { state.capped += 1 }
                let entry = Entry(
                    target: link.target, app: stored.app, extras: Extras.of(link),
                    expires: stored.expires ?? .infinity, changeID: stored.changeID,
                    deleted: stored.deleted, disabled: link.disabled == true, slot: held?.slot ?? state.nextSlot)
                state.domains[link.domain, default: [:]][link.code] = entry
                if held == nil {
                    state.count += 1
                    state.nextSlot &+= 1
                }
                state.seen = max(state.seen, stored.changeID)
            }
        }
        changes.add(1, ordering: .releasing)
    }

    /// Reads every link written since the last one applied, in pages, within `deadline`. Link writes hold the
    /// registry's write lock, so change ids commit in order and a page never skips one.
    func catchUp(from store: Store, deadline: ContinuousClock.Instant) throws {
        while true {
            let after = seen
            let page = try store.read(deadline: deadline) { tx in
                try store.links.changedForIndex(after: after, limit: 10_000, in: tx)
            }
            apply(page)
            if page.count < 10_000 {
                loadedOnce.store(true, ordering: .releasing)
                return
            }
        }
    }
}
