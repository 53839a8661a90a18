import RegistryService
import RouteCore

/// `CanOpen.Check` without `JSONDecoder`/`JSONEncoder`: the most frequent call, and a small one, so its
/// JSON coding was a third of its cost. Answers exactly what the method's handler answers; any call it
/// does not recognise as plain (see `RPCFastPath`) goes to the handler.
enum CanOpenCheckFastPath {
    static func make(_ service: RegistryService) -> RPCFastPath {
        CanOpenFastParams.fastPath(API.CanOpenCheck.name, last: "url") { read in
            let input = API.CanOpenCheck.Input(
                app: read.app, platform: read.platform, version: read.version, url: read.last)
            return encode(try service.check(input))
        }
    }

    /// The decision as the codec would encode it (keys sorted), or nil when a value is not printable ASCII.
    static func encode(_ decision: Decision) -> [UInt8]? {
        var writer = FlatJSONWriter()
        guard writer.append("decision", decision.decision.rawValue) else { return nil }
        if let url = decision.fallbackUrl, !writer.append("fallbackUrl", url) { return nil }
        if let reason = decision.reason, !writer.append("reason", reason.rawValue) { return nil }
        if let route = decision.route, !writer.append("route", route) { return nil }
        if let since = decision.supportedSince, !writer.append("supportedSince", since) { return nil }
        return writer.finish()
    }
}
