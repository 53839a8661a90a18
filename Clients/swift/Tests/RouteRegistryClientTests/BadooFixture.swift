import Foundation
import RouteCore

/// The registry of ARCHITECTURE.md "The reference scenario", and a fake `CanOpen.GetTable` that serves its tables
/// the way the registry does (ETag from the table's canonical bytes, `notModified` on a matching
/// `ifNoneMatch`).
enum BadooFixture {
    static func version(_ text: String) -> Version {
        // The fixture's versions are literals known to be valid.
        try! Version(text)
    }

    /// Badoo after step 5: `profile` since 5.0, `help` excluded, `lookalikes` since 5.12.0, an `offer`
    /// custom-scheme route, 5.11.0 and 5.12.0 live.
    static func registry(lookalikesSwitchedOffIn switchedOff: [String] = []) -> Registry {
        let app = App(
            id: "badoo", displayName: "Badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]),
            schemes: ["badoo"])
        let routes = [
            Route(
                id: "profile", pattern: URLPattern(path: "/u/*"),
                platforms: [.ios: VersionRange(since: version("5.0"))]),
            Route(id: "help", pattern: URLPattern(path: "/help/*"), action: .exclude),
            Route(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: version("5.12.0"))],
                switchedOff: [.ios: switchedOff.map { SwitchedOff(version: version($0), reason: "crash") }]),
            Route(
                id: "offer", pattern: URLPattern(scheme: "badoo", path: "/offer/*"),
                platforms: [.ios: VersionRange(since: version("5.12.0"))],
                webFallback: "https://badoo.com{path}"),
        ]
        return Registry(
            apps: [app],
            domains: [Domain(host: "badoo.com", apps: ["badoo"]), Domain(host: "m.badoo.com", apps: ["badoo"])],
            routes: ["badoo": routes],
            releases: [
                Release(app: "badoo", platform: .ios, version: version("5.11.0"), state: .live),
                Release(app: "badoo", platform: .ios, version: version("5.12.0"), state: .live),
            ])
    }

    /// URLs covering every kind of decision.
    static let urls = [
        "https://m.badoo.com/u/1", "https://badoo.com/u/alice?x=1#top", "https://m.badoo.com/l/a/42",
        "https://m.badoo.com/l/a/42?ul_fallback=1", "https://m.badoo.com/help/faq", "https://m.badoo.com/",
        "https://m.badoo.com/nothing/here", "https://example.com/u/1", "badoo://offer/7?src=push", "badoo://other",
        "other://offer/1", "not a url",
    ]

    /// The table of `version` and its ETag, as the registry derives them.
    static func table(_ registry: Registry, version: String) throws -> (table: CanOpenTable, etag: String) {
        guard
            let generated = try Generator.canOpenTable(
                registry: registry, app: "badoo", platform: .ios, version: Self.version(version))
        else { throw CocoaError(.fileNoSuchFile) }
        return (generated.table, generated.file.etag)
    }

    /// A `CanOpen.GetTable` answer for `request` from the registry `current()` returns.
    static func getTableReply(
        _ request: FakeRPCServer.Request, current: () -> Registry
    ) -> FakeRPCServer.Reply {
        guard request.method == "CanOpen.GetTable", let version = request.params["version"]?.stringValue,
            let (table, etag) = try? table(current(), version: version)
        else { return .error(#"{"code":-32601,"message":"Method not found"}"#) }
        let notModified = request.params["ifNoneMatch"]?.stringValue == etag
        let output = API.CanOpenGetTable.Output(etag: etag, notModified: notModified, table: notModified ? nil : table)
        guard let json = try? CanonicalJSON.encode(output) else { return .error(#"{"code":13,"message":"x"}"#) }
        return .result(String(decoding: json, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftclient-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
