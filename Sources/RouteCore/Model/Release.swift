/// An app version on a platform. Resource name: `apps/{app}/platforms/{platform}/releases/{version}`.
/// Only `live` releases shape the generated files.
public struct Release: Sendable, Hashable, Codable {
    public var app: String
    public var platform: Platform
    public var version: Version
    public var state: ReleaseState

    public init(app: String, platform: Platform, version: Version, state: ReleaseState = .draft) {
        self.app = app
        self.platform = platform
        self.version = version
        self.state = state
    }
}

extension Release {
    /// The release's resource name, its version in canonical form (`Version.canonical`).
    public static func resourceName(app: String, platform: Platform, version: Version) -> String {
        "apps/\(app)/platforms/\(platform.rawValue)/releases/\(version.canonical)"
    }

    /// `name` with a release version in it spelled canonically (`apps/a/platforms/ios/releases/5.12` →
    /// `…/releases/5.12.0`); any other name is returned as it is. For filters given by clients.
    public static func canonicalName(_ name: String) -> String {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 6, parts[0] == "apps", parts[2] == "platforms", parts[4] == "releases",
            let version = try? Version(String(parts[5]))
        else { return name }
        var canonical = parts.map(String.init)
        canonical[5] = version.canonical
        return canonical.joined(separator: "/")
    }
}

/// A release's life: `draft` → `live` → `retired` (a retired release may be published again).
public enum ReleaseState: String, Sendable, Hashable, Codable, CaseIterable {
    case draft
    case live
    case retired
}
