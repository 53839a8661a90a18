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

/// A release's life: `draft` → `live` → `retired` (a retired release may be published again).
public enum ReleaseState: String, Sendable, Hashable, Codable, CaseIterable {
    case draft
    case live
    case retired
}
