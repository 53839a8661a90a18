/// Names one app version on one platform: a release (`ResourceName.release`) and its canOpen table.
public struct ReleaseKey: Sendable, Hashable, Codable {
    public var app: String
    public var platform: Platform
    public var version: Version

    public init(app: String, platform: Platform, version: Version) {
        self.app = app
        self.platform = platform
        self.version = version
    }
}
