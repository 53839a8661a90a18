import RouteCore

/// The params both `CanOpen` fast paths take: `app`, `platform`, `version` and one more string member
/// (`url` or `ifNoneMatch`), all required and nothing else; nil for values it cannot read, so the handler
/// answers.
struct CanOpenFastParams {
    let app: String
    let platform: Platform
    let version: Version
    /// The fourth member's value.
    let last: String

    /// The names of the members read, `last` being the fourth.
    static func keys(_ last: StaticString) -> [String] { ["app", "platform", "version", "\(last)"] }

    /// `fields`: the values of `keys(_:)`, in that order.
    init?(_ fields: [String]) {
        guard fields.count == 4, let platform = Platform(rawValue: fields[1]), let version = try? Version(fields[2])
        else { return nil }
        app = fields[0]
        self.platform = platform
        self.version = version
        last = fields[3]
    }
}
