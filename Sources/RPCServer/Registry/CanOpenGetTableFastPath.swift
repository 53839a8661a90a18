import RegistryService
import RouteCore

/// `CanOpen.GetTable` without `JSONDecoder`: apps revalidate their table on every launch, so most calls are
/// the 304 path (`ifNoneMatch` current), where decoding the params cost more than the answer. Answers
/// exactly what the method's handler answers (the same `canOpenTableJSON`); a call without `ifNoneMatch`,
/// or any call it does not recognise as plain (see `RPCFastPath`), goes to the handler.
enum CanOpenGetTableFastPath {
    static func make(_ service: RegistryService) -> RPCFastPath {
        RPCFastPath(method: API.CanOpenGetTable.name) { _, params in
            guard let params,
                let fields = FlatJSONObject.strings(params, keys: ["app", "platform", "version", "ifNoneMatch"]),
                let platform = Platform(rawValue: fields[1]),
                let version = try? Version(fields[2])
            else { return nil }
            let input = API.CanOpenGetTable.Input(
                app: fields[0], platform: platform, version: version, ifNoneMatch: fields[3])
            return try RegistryMethods.canOpenTableJSON(service, input).bytes
        }
    }
}
