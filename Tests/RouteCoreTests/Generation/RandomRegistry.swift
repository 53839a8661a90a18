@testable import RouteCore
@testable import RouteMatching

/// SplitMix64: a small seeded generator so randomized tests are reproducible.
struct RegistryRNG: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random registries and URLs over a small alphabet, so rules and URLs collide often.
struct RandomRegistry {
    var rng: RegistryRNG
    static let segments = ["a", "b", "ab", "A", "x%2Fy", "en", "bz"]
    static let versions = ["1", "2", "2.5", "3", "4"].map { try! Version($0) }
    static let hosts = ["one.example", "two.example"]
    static let appIDs = ["ABCDE12345.com.example.one", "ABCDE12345.com.example.two"]

    init(seed: UInt64) { rng = RegistryRNG(seed: seed) }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    mutating func pathPattern() -> String? {
        if chance(0.1) { return nil }
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            parts.append(pick(Self.segments + ["*", "?", "a*", "?b", "$(food)", "$(lang)"]))
        }
        return "/" + parts.joined(separator: "/") + (chance(0.3) ? "/*" : "")
    }

    mutating func route(_ id: Int) -> Route {
        let exclude = chance(0.2)
        var platforms: [Platform: VersionRange] = [:]
        var switchedOff: [Platform: [SwitchedOff]] = [:]
        if !exclude {
            for platform in Platform.allCases where chance(0.8) {
                let since = pick(Self.versions)
                let until: Version? = chance(0.3) ? pick(Self.versions) : nil
                platforms[platform] = VersionRange(since: since, until: until.flatMap { $0 > since ? $0 : nil })
                if chance(0.3) { switchedOff[platform] = [SwitchedOff(version: pick(Self.versions))] }
            }
        }
        var query: QueryPattern?
        if chance(0.2) {
            query = chance(0.5) ? .items(["k": pick(["a", "?*", "*", "b?"])]) : .string(pick(["k=a", "*", "k=?"]))
        }
        let pattern = URLPattern(
            path: pathPattern(), query: query, fragment: chance(0.1) ? pick(["f", "*"]) : nil,
            caseSensitive: chance(0.2) ? false : nil, percentEncoded: chance(0.1) ? false : nil)
        return Route(
            id: "r\(id)", pattern: pattern, action: exclude ? .exclude : .open, platforms: platforms,
            switchedOff: switchedOff, domains: chance(0.2) ? [pick(Self.hosts)] : [])
    }

    mutating func registry() -> Registry {
        var apps: [App] = []
        var routes: [String: [Route]] = [:]
        var releases: [Release] = []
        for (i, appID) in Self.appIDs.enumerated() {
            let id = "app\(i)"
            apps.append(
                App(
                    id: id, ios: chance(0.15) ? nil : IOSConfig(appIds: [appID]),
                    android: chance(0.15)
                        ? nil : AndroidConfig(packageName: "com.example.app\(i)", sha256CertFingerprints: []),
                    defaults: chance(0.2) ? MatchDefaults(caseSensitive: false) : nil))
            routes[id] = (0..<Int.random(in: 0...10, using: &rng)).map { route($0) }
            for platform in Platform.allCases {
                for version in Self.versions where chance(0.5) {
                    releases.append(
                        Release(
                            app: id, platform: platform, version: version,
                            state: pick([.live, .live, .draft, .retired])))
                }
            }
        }
        let domains = [
            Domain(
                host: Self.hosts[0], apps: ["app0", "app1"],
                defaults: chance(0.2) ? MatchDefaults(percentEncoded: false) : nil),
            Domain(host: Self.hosts[1], apps: ["app1"], substitutionVariables: ["food": ["ab", "b*"]]),
        ]
        return Registry(apps: apps, domains: domains, routes: routes, releases: releases)
    }

    mutating func url() -> String {
        let host = pick(Self.hosts)
        let path = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pick(Self.segments) }.joined(separator: "/")
        var url = "https://\(host)/\(path)"
        if chance(0.4) { url += "?" + pick(["k=a", "k=", "k=ab", "ul_fallback=1", "z=1&k=b", "ul_fallback="]) }
        if chance(0.15) { url += "#" + pick(["f", "g"]) }
        return url
    }
}
