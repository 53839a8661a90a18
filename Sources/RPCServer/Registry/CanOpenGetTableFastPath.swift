import RegistryService
import RouteCore

/// `CanOpen.GetTable` without `JSONDecoder`: apps revalidate their table on every launch, so most calls are
/// the 304 path (`ifNoneMatch` current), where decoding the params cost more than the answer. Answers
/// exactly what the method's handler answers (the same `canOpenTableJSON`); a call without `ifNoneMatch`,
/// or any call it does not recognise as plain (see `RPCFastPath`), goes to the handler.
enum CanOpenGetTableFastPath {
    static func make(_ service: RegistryService) -> RPCFastPath {
        CanOpenFastParams.fastPath(API.CanOpenGetTable.name, last: "ifNoneMatch") { read in
            let input = API.CanOpenGetTable.Input(
                app: read.app, platform: read.platform, version: read.version, ifNoneMatch: read.last)
            return try RegistryMethods.canOpenTableJSON(service, input).bytes
        }
    }
}
