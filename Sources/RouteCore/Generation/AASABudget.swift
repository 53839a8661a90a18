import Foundation

/// One app's part of a domain's `apple-app-site-association` and its share of Apple's size limit.
public struct AASAShare: Codable, Sendable, Hashable {
    /// The app.
    public var app: String
    /// The bytes of its section: its `details` entries (`appIDs`, `components`, legacy `paths`) and its IDs
    /// under `webcredentials` and `appclips`, with their separators.
    public var bytes: Int
    /// The bytes it may use: what the limit leaves after the document's shared part (its structure, the
    /// domain's `defaults` and `substitutionVariables`), divided equally among the domain's iOS apps.
    public var share: Int

    public init(app: String, bytes: Int, share: Int) {
        self.app = app
        self.bytes = bytes
        self.share = share
    }
}

/// How a shared domain's AASA budget is split: each app with an iOS side gets an equal share of Apple's
/// 128 KB limit, so one app's rules can never push a neighbour's publish over it. Equal shares need no
/// setting and no one to arbitrate; an app that needs more gets a domain of its own.
///
/// The parts add up to the document: the shared part is the size minus the apps' sections, so while every
/// app stays within its share, the whole stays within the limit.
public enum AASABudget {
    /// The sections of `file` (`size` bytes as served) of each of `apps` (the domain's apps, in order).
    public static func shares(of file: AASAFile, size: Int, apps: [App]) -> [AASAShare] {
        let ios = apps.filter { !($0.ios?.appIds.isEmpty ?? true) }
        guard !ios.isEmpty else { return [] }
        let details = file.applinks.details
        var bytes = Array(repeating: 0, count: ios.count)
        for (i, detail) in details.enumerated() {
            // The generator writes one entry per iOS app in the domain's order, then legacy-only entries
            // (`appID` + `paths`) for apps with several app IDs.
            let owner =
                i < ios.count ? i : ios.firstIndex { $0.ios?.appIds.contains(detail.appID ?? "") == true }
            guard let owner else { continue }
            bytes[owner] += encodedSize(detail) + 1
        }
        for (i, app) in ios.enumerated() {
            if app.ios?.webcredentials == true, file.webcredentials != nil {
                bytes[i] += app.ios!.appIds.reduce(0) { $0 + $1.utf8.count + 3 }
            }
            if file.appclips != nil { bytes[i] += (app.ios?.appClips ?? []).reduce(0) { $0 + $1.utf8.count + 3 } }
        }
        let shared = max(0, size - bytes.reduce(0, +))
        let share = max(0, Generator.aasaSizeLimit - shared) / ios.count
        return zip(ios, bytes).map { AASAShare(app: $0.id, bytes: $1, share: share) }
    }

    /// The bytes one `details` entry takes in the canonical encoding.
    static func encodedSize(_ detail: AASADetail) -> Int {
        let alone = try? AASAFile(applinks: AASAAppLinks(details: [detail])).canonicalJSON().count
        return (alone ?? emptySize) - emptySize
    }

    /// A document with no entry: what `encodedSize` leaves out.
    private static let emptySize = (try? AASAFile(applinks: AASAAppLinks(details: [])).canonicalJSON().count) ?? 0

    /// FAILED_PRECONDITION to `share`'s app, naming the domain, the app, its bytes and its share.
    public static func overShare(_ share: AASAShare, host: String, apps: Int) -> RegistryError {
        .failedPrecondition(
            "\(ResourceName.app(share.app))'s section of apple-app-site-association for "
                + "\(ResourceName.domain(host)) would be \(share.bytes) bytes, above its share of \(share.share) "
                + "bytes (Apple's limit of \(Generator.aasaSizeLimit) bytes is shared equally by the domain's "
                + "\(apps) apps): remove or merge routes, or serve the app on a domain of its own")
    }
}
