/// Which app a name belongs to. An iOS app ID (team ID and bundle ID, `appIds` and `appClips`), an Android
/// package name and a host pattern belong to one app: claiming one another app holds is refused unless an
/// admin for every app shares it on purpose (`shareNames`). Otherwise one tenant could put another's app in
/// its rules (its `appIDs` then open the other's app on a shared domain) or its package in its statements.
///
/// Only names a write adds are checked: names two apps already hold (written before this rule, or shared on
/// purpose) stay as they are, so such registries keep loading and each app can still be updated.
public enum NameOwnership {
    /// A name an app claims that another app holds.
    public struct Conflict: Sendable, Hashable {
        /// Where the name is in the request (`app.ios.appIds[0]`).
        public var field: String
        /// The name (`ABCDE12345.com.badoo.Badoo`, `*.badoo.com`).
        public var name: String
        /// What kind of name it is, for the message (`iOS app ID`).
        public var kind: String
        /// The app that holds it.
        public var owner: String
        /// What the owner holds it as, when that is not the name itself (a domain under a host pattern).
        public var heldAs: String?

        /// ALREADY_EXISTS naming the field, the name and the owning app. The name is a unique key another
        /// resource holds, as an id taken is (gRPC: "the entity a client attempted to create already
        /// exists"); FAILED_PRECONDITION would suggest some state to fix first, while here the only remedies
        /// are another name or an admin sharing it on purpose.
        public var error: RegistryError {
            let held = heldAs.map { " (\($0))" } ?? ""
            let description =
                "\(kind) \(name) belongs to \(ResourceName.app(owner))\(held): only an admin token for every app "
                + "may share it, with shareNames: true"
            return RegistryError(
                .alreadyExists, "\(field): \(description)",
                fieldViolations: [FieldViolation(field: field, description: description)])
        }
    }

    /// The first name `app` claims, beyond those `before` (its stored self) held, that one of `others` holds
    /// (an iOS app ID or App Clip ID, the Android package, a host pattern overlapping another app's pattern
    /// or a domain another app serves), or nil.
    public static func conflict(
        claimedBy app: App, before: App?, others: [App], domains: [Domain], field: String = "app"
    ) -> Conflict? {
        let others = others.filter { $0.id != app.id }
        let heldIOS = Set(before.map(iosIDs) ?? [])
        for (list, path) in [(app.ios?.appIds ?? [], "ios.appIds"), (app.ios?.appClips ?? [], "ios.appClips")] {
            for (i, id) in list.enumerated() where !heldIOS.contains(id) {
                if let owner = others.first(where: { iosIDs($0).contains(id) }) {
                    return Conflict(field: "\(field).\(path)[\(i)]", name: id, kind: "iOS app ID", owner: owner.id)
                }
            }
        }
        if let package = app.android?.packageName, package != before?.android?.packageName,
            let owner = others.first(where: { $0.android?.packageName == package })
        {
            return Conflict(
                field: "\(field).android.packageName", name: package, kind: "Android package", owner: owner.id)
        }
        let heldPatterns = Set(before?.hosts ?? [])
        for (i, pattern) in (app.hosts ?? []).enumerated() where !heldPatterns.contains(pattern) {
            let path = "\(field).hosts[\(i)]"
            for other in others {
                if let theirs = (other.hosts ?? []).first(where: { HostPattern.overlap(pattern, $0) }) {
                    return Conflict(
                        field: path, name: pattern, kind: "host pattern", owner: other.id,
                        heldAs: "its host pattern \(theirs)")
                }
            }
            for domain in domains where HostPattern.matches(pattern, host: domain.host) {
                if let owner = domain.apps.first(where: { $0 != app.id }) {
                    return Conflict(
                        field: path, name: pattern, kind: "host pattern", owner: owner,
                        heldAs: "it serves \(ResourceName.domain(domain.host))")
                }
            }
        }
        return nil
    }

    /// Every iOS app ID an app names (its app IDs and App Clip IDs).
    static func iosIDs(_ app: App) -> [String] { (app.ios?.appIds ?? []) + (app.ios?.appClips ?? []) }
}
