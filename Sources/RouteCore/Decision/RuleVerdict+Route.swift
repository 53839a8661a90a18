extension RuleVerdict {
    /// The verdict of `route` for `version` on `platform`. `borrowing`, so that a route the engine shares
    /// is read in place, not copied (a retain of each field) to be passed.
    public init(_ route: borrowing Route, platform: Platform, version: Version) {
        if route.action == .exclude {
            self = .exclude
        } else if !route.inRange(platform, version) {
            self = .unsupported
        } else {
            self = route.isSwitchedOff(platform, version) ? .switchedOff : .open
        }
    }

    /// The first version that handles `route`, when `version` is below its range (for `supportedSince`).
    static func supportedSince(_ route: borrowing Route, platform: Platform, version: Version) -> String? {
        guard route.action == .open, let range = route.platforms[platform], version < range.since else { return nil }
        return range.since.description
    }
}
