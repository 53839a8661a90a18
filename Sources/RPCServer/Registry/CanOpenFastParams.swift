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

    /// A fast path for `method`, whose params are `app`, `platform`, `version` and `last`: `answer` gets
    /// them read (a call whose values it cannot read goes to the handler).
    static func fastPath(
        _ method: String, last: String, _ answer: @escaping @Sendable (CanOpenFastParams) throws -> [UInt8]?
    ) -> RPCFastPath {
        RPCFastPath(method: method, params: ["app", "platform", "version", last]) { _, fields in
            guard let read = CanOpenFastParams(fields) else { return nil }
            return try answer(read)
        }
    }

    /// `fields`: the values of the four params, in that order.
    init?(_ fields: [String]) {
        guard fields.count == 4, let platform = Platform(rawValue: fields[1]), let version = try? Version(fields[2])
        else { return nil }
        app = fields[0]
        self.platform = platform
        self.version = version
        last = fields[3]
    }
}
