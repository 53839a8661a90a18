import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// The generated AASA, parsed back and evaluated like iOS does, agrees with the decision model: it opens
/// the app exactly when some live iOS version would; and every canOpen table decides like the engine.
@Suite struct RoundTripTests {
    @Test(arguments: 0..<40)
    func generatedAASAAgreesWithDecide(seed: Int) throws {
        var random = RandomRegistry(seed: UInt64(seed) &* 7919 &+ 1)
        let registry = random.registry()
        let files = try Generator.generate(registry: registry)
        let engine = DecisionEngine(registry: registry)
        let documents = try RandomRegistry.hosts.map { host in
            try AASADocument(json: try #require(files.hosts[host]).aasa.bytes)
        }
        for _ in 0..<150 {
            let url = random.url()
            let link = try #require(LinkURL(url))
            let document = documents[RandomRegistry.hosts.firstIndex(of: link.host)!]
            for (i, app) in registry.apps.enumerated() {
                let live = registry.liveVersions(app: app.id, platform: .ios)
                let opens = live.contains {
                    engine.decide(app: app.id, platform: .ios, version: $0, url: url).decision == .openInApp
                }
                let evaluation = document.evaluate(appID: RandomRegistry.appIDs[i], url: link, domain: link.host)
                #expect(
                    (evaluation.outcome == .match) == opens,
                    "seed \(seed) \(app.id) \(url): AASA \(evaluation.outcome) (\(evaluation.reason)), live opens: \(opens)"
                )
            }
        }
    }

    @Test(arguments: 0..<40)
    func canOpenTablesDecideLikeTheEngine(seed: Int) throws {
        var random = RandomRegistry(seed: UInt64(seed) &* 104_729 &+ 3)
        let registry = random.registry()
        let engine = DecisionEngine(registry: registry)
        let urls = (0..<80).map { _ in random.url() }
        for app in registry.apps {
            for platform in Platform.allCases {
                for version in RandomRegistry.versions {
                    let table = try #require(
                        try Generator.canOpenTable(
                            registry: registry, app: app.id, platform: platform, version: version))
                    let decoded = CompiledCanOpenTable(
                        try JSONDecoder().decode(CanOpenTable.self, from: table.file.bytes))
                    for url in urls {
                        let expected = engine.decide(app: app.id, platform: platform, version: version, url: url)
                        #expect(
                            decoded.decide(url: url) == expected, "seed \(seed) \(app.id) \(platform) \(version) \(url)"
                        )
                    }
                }
            }
        }
    }
}

/// `Route.handlesAny` (bisection, one lookup of range and switch-offs) answers as asking `handles` of every
/// live version does, for random routes, every platform and every ascending subset of the versions.
@Suite struct HandlesAnyTests {
    @Test(arguments: 0..<20)
    func handlesAnyAgreesWithAskingEveryVersion(seed: Int) {
        var random = RandomRegistry(seed: UInt64(seed) &* 2_654_435_761 &+ 5)
        let versions = RandomRegistry.versions.sorted()
        for id in 0..<50 {
            let route = random.route(id)
            for platform in [Platform.ios, .android] {
                for mask in 0..<(1 << versions.count) {
                    let live = versions.indices.filter { mask & (1 << $0) != 0 }.map { versions[$0] }
                    #expect(
                        route.handlesAny(platform, ofAscending: live)
                            == live.contains { route.handles(platform, $0) },
                        "seed \(seed) route \(route.id) \(platform) \(live)")
                }
            }
        }
    }
}
