import Foundation

@testable import RouteCore
@testable import RouteMatching

/// The Badoo story (ARCHITECTURE.md "The reference scenario") as registries, one per state of the story.
enum BadooFixture {
    static let appID = "ABCDE12345.com.badoo.Badoo"
    static let fingerprint = (0..<32).map { String(format: "%02X", ($0 * 7 + 3) % 256) }.joined(separator: ":")

    static func v(_ text: String) -> Version { try! Version(text) }

    static let app = App(
        id: "badoo", displayName: "Badoo", ios: IOSConfig(appIds: [appID]),
        android: AndroidConfig(packageName: "com.badoo.mobile", sha256CertFingerprints: [fingerprint]),
        schemes: ["badoo"])

    /// `help` is ordered before `profile` (created with `before: profile`), so the exclusion has an open
    /// rule after it from the first publish on, as step 3 of ARCHITECTURE.md "The reference scenario" expects.
    static func routes(lookalikes: Bool, switchedOff: Bool) -> [Route] {
        var routes = [
            Route(
                id: "help", pattern: URLPattern(path: "/help/*"), action: .exclude,
                comment: "help pages stay on the web"),
            Route(
                id: "profile", pattern: URLPattern(path: "/u/*"),
                platforms: [.ios: VersionRange(since: v("5.0")), .android: VersionRange(since: v("5.0"))]),
            Route(
                id: "offer", pattern: URLPattern(scheme: "badoo", path: "/offer/*"),
                platforms: [.ios: VersionRange(since: v("5.11.0"))], webFallback: "https://m.badoo.com{path}"),
        ]
        if lookalikes {
            routes.append(
                Route(
                    id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                    platforms: [.ios: VersionRange(since: v("5.12.0")), .android: VersionRange(since: v("5.12.0"))],
                    switchedOff: switchedOff ? [.ios: [SwitchedOff(version: v("5.12.0"), reason: "crash")]] : [:]))
        }
        return routes
    }

    /// The states of the story, named for golden files.
    enum State: String, CaseIterable, Sendable {
        /// iOS 5.11.0 published; profile and help exist.
        case published511 = "published-5.11.0"
        /// lookalikes added, nothing published: the files must not change.
        case lookalikesAdded = "lookalikes-added"
        /// iOS 5.12.0 published.
        case published512 = "published-5.12.0"
        /// lookalikes switched off for iOS 5.12.0.
        case switchedOff = "switched-off"
    }

    static func registry(_ state: State) -> Registry {
        let lookalikes = state != .published511
        var releases = [
            Release(app: "badoo", platform: .ios, version: v("5.11.0"), state: .live),
            Release(app: "badoo", platform: .android, version: v("5.11.0"), state: .live),
        ]
        if state == .published512 || state == .switchedOff {
            releases.append(Release(app: "badoo", platform: .ios, version: v("5.12.0"), state: .live))
        }
        return Registry(
            apps: [app],
            domains: [
                Domain(host: "badoo.com", apps: ["badoo"], legacyPaths: true),
                Domain(host: "m.badoo.com", apps: ["badoo"]),
            ],
            routes: ["badoo": routes(lookalikes: lookalikes, switchedOff: state == .switchedOff)],
            releases: releases)
    }
}

/// Golden files under `Tests/RouteCoreTests/Fixtures/golden/`, compared byte for byte.
/// `ROUTEREG_UPDATE_GOLDEN=1` rewrites them in the source tree instead.
enum Golden {
    static var sourceDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden")
    }

    static var updating: Bool { ProcessInfo.processInfo.environment["ROUTEREG_UPDATE_GOLDEN"] == "1" }

    /// The stored golden bytes, or nil after rewriting them (update mode) or when missing.
    static func expected(_ name: String, actual: Data) throws -> Data? {
        if updating {
            try FileManager.default.createDirectory(at: sourceDirectory, withIntermediateDirectories: true)
            try actual.write(to: sourceDirectory.appendingPathComponent(name))
            return nil
        }
        guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else { return nil }
        return try? Data(contentsOf: fixtures.appendingPathComponent("golden").appendingPathComponent(name))
    }
}
