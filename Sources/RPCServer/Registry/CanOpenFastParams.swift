import RouteCore

/// The params both `CanOpen` fast paths take: `app`, `platform`, `version` and one more string member
/// (`url` or `ifNoneMatch`), all required and nothing else; nil for anything else, so the handler answers.
struct CanOpenFastParams {
    let app: String
    let platform: Platform
    let version: Version
    /// The fourth member's value.
    let last: String

    /// The names of the members read, `last` being the fourth.
    static func keys(_ last: StaticString) -> [String] { ["app", "platform", "version", "\(last)"] }

    init?(_ params: ArraySlice<UInt8>?, last key: StaticString) {
        guard let params,
            let fields = FlatJSONObject.strings(params, keys: ["app", "platform", "version", key]),
            let platform = Platform(rawValue: fields[1]),
            let version = try? Version(fields[2])
        else { return nil }
        app = fields[0]
        self.platform = platform
        self.version = version
        last = fields[3]
    }
}
