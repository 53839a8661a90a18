extension RuleVerdict {
    /// The verdict of `route` for `version` on `platform`.
    public init(_ route: Route, platform: Platform, version: Version) {
        if route.action == .exclude {
            self = .exclude
        } else if !route.inRange(platform, version) {
            self = .unsupported
        } else {
            self = route.isSwitchedOff(platform, version) ? .switchedOff : .open
        }
    }

    /// The first version that handles `route`, when `version` is below its range (for `supportedSince`).
    static func supportedSince(_ route: Route, platform: Platform, version: Version) -> String? {
        guard route.action == .open, let range = route.platforms[platform], version < range.since else { return nil }
        return range.since.description
    }
}
