import Foundation
import RouteCore
import Testing

@testable import RegistryService

@Suite struct CanOpenTableCacheTests {
    private static let registry = Registry(
        apps: [App(id: "badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]))],
        domains: [Domain(host: "m.badoo.com", apps: ["badoo"])],
        routes: [
            "badoo": [
                Route(
                    id: "profile", pattern: URLPattern(path: "/u/*"),
                    platforms: [.ios: VersionRange(since: try! Version("5.0"))])
            ]
        ],
        releases: [Release(app: "badoo", platform: .ios, version: try! Version("5.11.0"), state: .live)])

    /// An installed version that is not live (retired, or a beta) asks for its table on every launch: it is
    /// remembered like a live one, and answers as a fresh computation does.
    @Test func tablesOfVersionsThatAreNotLiveAreRemembered() throws {
        let cache = CanOpenTableCache(registry: Self.registry)
        let retired = ReleaseKey(app: "badoo", platform: .ios, version: try Version("4.2"))
        let live = ReleaseKey(app: "badoo", platform: .ios, version: try Version("5.11.0"))
        // Live versions are the registry's (what the cache computes its set from).
        let liveVersions = Self.registry.liveVersions(app: "badoo", platform: .ios)
        #expect(!liveVersions.contains(retired.version) && liveVersions.contains(live.version))
        #expect(!cache.holds(retired))
        let first = try #require(try cache.file(retired))
        #expect(cache.holds(retired))
        #expect(try cache.file(retired) == first)
        let fresh = try #require(
            try Generator.canOpenTable(
                registry: Self.registry, app: "badoo", platform: .ios, version: try Version("4.2")))
        #expect(fresh.file == first)
        // Only live versions' ETags are kept apart from the byte budget (any version string can be asked for).
        #expect(cache.knownETag(retired) == nil)
        _ = try cache.file(live)
        #expect(cache.knownETag(live) != nil && cache.holds(live))
    }
}
