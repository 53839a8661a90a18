import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// Shadowing and compaction must never change a decision: checked against the real matcher on random
/// registries and URLs.
@Suite struct CoverageSoundnessTests {
    @Test(arguments: 0..<30)
    func shadowedRoutesNeverDecide(seed: Int) throws {
        var random = RandomRegistry(seed: UInt64(seed) &* 31_337 &+ 11)
        let registry = random.registry()
        let index = RegistryIndex(registry)
        let urls = (0..<300).map { _ in random.url() }
        for host in RandomRegistry.hosts {
            let target = try #require(index.target(of: host))
            let findings = RuleLinter(index: index).lint(host: host).filter { $0.code == LintCode.shadowedRule }
            for appID in target.apps {
                let shadowed = Set(findings.filter { $0.message.contains(" of app \(appID) ") }.compactMap(\.route))
                let app = try #require(index.apps[appID])
                let routes = index.webRoutes(app: appID, target: target)
                let rules = RuleSet(
                    rules: routes.map { RouteRules.componentRule($0, app: app, domain: target) },
                    substitutionVariables: target.substitutionVariables ?? [:])
                for url in urls {
                    let link = try #require(LinkURL(url))
                    guard link.host == host, let hit = rules.firstMatch(link) else { continue }
                    #expect(
                        !shadowed.contains(routes[hit].id), "seed \(seed) \(url) decided by shadowed \(routes[hit].id)")
                }
            }
        }
    }

    @Test(arguments: 0..<30)
    func compactionKeepsEveryDecision(seed: Int) throws {
        var random = RandomRegistry(seed: UInt64(seed) &* 65_537 &+ 5)
        let registry = random.registry()
        let urls = (0..<300).map { _ in random.url() }
        let generator = AASAGenerator(index: RegistryIndex(registry))
        for host in RandomRegistry.hosts {
            let (file, _) = try #require(generator.document(host: host))
            let original = try AASADocument(json: try CanonicalJSON.encode(file))
            let compacted = try AASADocument(
                json: try CanonicalJSON.encode(Compactor.withoutComments(Compactor.dropUnreachable(file))))
            for appID in RandomRegistry.appIDs {
                for url in urls {
                    let link = try #require(LinkURL(url))
                    let before = original.evaluate(appID: appID, url: link, domain: host).outcome == .match
                    let after = compacted.evaluate(appID: appID, url: link, domain: host).outcome == .match
                    #expect(before == after, "seed \(seed) \(host) \(appID) \(url)")
                }
            }
        }
    }
}
