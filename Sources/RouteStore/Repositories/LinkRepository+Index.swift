import Foundation
import RouteCore

/// A link as the in-memory index reads it: what a click needs (so not its tags), none of the row's bookkeeping.
public struct LinkIndexRow: Sendable, Hashable {
    public var link: ShortLink
    public var app: String
    /// Seconds since 1970 when it stops working; nil when it does not.
    public var expires: Double?
    public var deleted: Bool
    public var changeID: Int64
}

extension LinkRepository {
    /// Every link written after change `after`, in change order, as the index needs them: eight columns, the
    /// rarely set ones folded into one (NULL for a link that has only a target), no timestamp to parse. A
    /// start with a million links reads them all, so each column saved is a million strings not made.
    public func changedForIndex(after: Int64, limit: Int, in tx: Transaction) throws -> [LinkIndexRow] {
        try tx.query(
            """
            SELECT domain, code, app, target, change_id, deleted_at IS NOT NULL AS deleted,
                extract(epoch FROM expires_at)::float8 AS expires,
                CASE WHEN num_nonnulls(desktop_url, preview_title, preview_description, preview_image_url,
                    ios_min_version, ios_fallback_url, android_min_version, android_fallback_url, skip_landing, utm,
                    disabled, max_clicks) = 0
                THEN NULL ELSE json_build_array(desktop_url, preview_title, preview_description, preview_image_url,
                    ios_min_version, ios_fallback_url, android_min_version, android_fallback_url, skip_landing, utm,
                    disabled, max_clicks)::text
                END AS extras
            FROM links WHERE change_id > \(after) ORDER BY change_id LIMIT \(limit)
            """
        ).map { row in
            let expires = try row.optionalString("expires").map { text in
                guard let seconds = Double(text) else {
                    throw StoreError(.decodingFailed, detail: "column expires is not a number")
                }
                return seconds
            }
            var link = ShortLink(
                domain: try row.string("domain"), code: try row.string("code"), target: try row.string("target"),
                expiresAt: expires.map { RFC3339.string(Date(timeIntervalSince1970: $0)) })
            if let extras = try row.optionalString("extras") { try Self.fill(&link, extras: extras) }
            return LinkIndexRow(
                link: link, app: try row.string("app"), expires: expires,
                deleted: try row.optionalBool("deleted") == true,
                changeID: Int64(try row.int("change_id")))
        }
    }

    /// The folded columns, in the order `changedForIndex` builds them.
    private static func fill(_ link: inout ShortLink, extras: String) throws {
        guard let values = try JSONSerialization.jsonObject(with: Data(extras.utf8)) as? [Any], values.count == 12
        else { throw StoreError(.decodingFailed, detail: "column extras is not the link's twelve fields") }
        func text(_ at: Int) -> String? { values[at] as? String }
        link.desktopUrl = text(0)
        if text(1) != nil || text(2) != nil || text(3) != nil {
            link.preview = LinkPreview(title: text(1), description: text(2), imageUrl: text(3))
        }
        if text(4) != nil || text(5) != nil {
            link.ios = LinkPlatformOptions(minVersion: text(4), fallbackUrl: text(5))
        }
        if text(6) != nil || text(7) != nil {
            link.android = LinkPlatformOptions(minVersion: text(6), fallbackUrl: text(7))
        }
        link.skipLanding = values[8] as? Bool
        if let utm = values[9] as? [String: Any] {
            link.utm = LinkCampaign(
                source: utm["source"] as? String, medium: utm["medium"] as? String,
                campaign: utm["campaign"] as? String, term: utm["term"] as? String, content: utm["content"] as? String)
        }
        link.disabled = values[10] as? Bool
        link.maxClicks = (values[11] as? NSNumber)?.intValue
    }
}
