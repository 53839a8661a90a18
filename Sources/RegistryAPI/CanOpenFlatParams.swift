import JSONRPC
import RouteCore

/// The plain params of the `CanOpen` methods: `app`, `platform`, `version` and one more string member
/// (`url` or `ifNoneMatch`), read without `JSONDecoder`. Values it cannot read (an unknown platform, a
/// version that does not parse) leave the call to the decoder, which names the field at fault.
enum CanOpenFlatParams {
    static let check = FlatParams<API.CanOpenCheck.Input>(keys: ["app", "platform", "version", "url"]) { fields in
        read(fields).map {
            API.CanOpenCheck.Input(app: $0.app, platform: $0.platform, version: $0.version, url: $0.last)
        }
    }

    static let getTable = FlatParams<API.CanOpenGetTable.Input>(keys: ["app", "platform", "version", "ifNoneMatch"]) {
        fields in
        read(fields).map {
            API.CanOpenGetTable.Input(app: $0.app, platform: $0.platform, version: $0.version, ifNoneMatch: $0.last)
        }
    }

    private static func read(_ fields: [String]) -> (app: String, platform: Platform, version: Version, last: String)? {
        guard fields.count == 4, let platform = Platform(rawValue: fields[1]), let version = try? Version(fields[2])
        else { return nil }
        return (fields[0], platform, version, fields[3])
    }
}
