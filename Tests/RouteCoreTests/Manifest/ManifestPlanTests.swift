@testable import RouteCore
import Testing

/// The plan is computed from values alone: each kind of edit shows as exactly its own change.
@Suite struct ManifestPlanTests {
    let state = ManifestFixture.state()
    var exported: Manifest { Manifest(exporting: state)! }

    @Test func anExportPlansNoChanges() {
        let plan = ManifestPlan(manifest: exported, state: state)
        #expect(plan.changes.isEmpty)
        #expect(!plan.hasChanges)
        #expect(plan.notInManifest.isEmpty)
        #expect(plan.summaryLine.hasPrefix("No changes"))
    }

    @Test func anAddedRouteIsOneAddWithItsVersions() throws {
        var manifest = exported
        manifest.routes.insert(
            ManifestRoute(
                id: "lookalikes", pattern: URLPattern(path: "/l/a/*"),
                platforms: [.ios: VersionRange(since: try Version("5.12.0"))]), at: 1)
        let plan = ManifestPlan(manifest: manifest, state: state)
        #expect(plan.changes.map(\.line) == ["+ route lookalikes /l/a/* (ios 5.12.0+)"])
        #expect(plan.changes.first?.before == "search")
    }

    @Test func aChangedSinceIsOneFieldChange() throws {
        var manifest = exported
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.1"))
        let plan = ManifestPlan(manifest: manifest, state: state)
        #expect(plan.changes.map(\.line) == ["~ route profile: since ios 5.0 → 5.1"])
        #expect(
            plan.changes.first?.fields == [
                .init(field: "platforms.ios.since", from: .string("5.0"), to: .string("5.1"))
            ])
    }

    @Test func equalVersionsWrittenDifferentlyAreNoChange() throws {
        var manifest = exported
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.0.0"))
        #expect(!ManifestPlan(manifest: manifest, state: state).hasChanges)
    }

    @Test func aRouteOnlyInTheRegistryIsKeptUnlessPruned() {
        var manifest = exported
        manifest.routes.removeAll { $0.id == "old" }
        let kept = ManifestPlan(manifest: manifest, state: state)
        #expect(!kept.hasChanges)
        #expect(kept.notInManifest == [.init(kind: .route, id: "old", managed: true)])
        #expect(kept.lines == ["  route old: not in manifest (kept; only a prune removes it)"])
        let pruned = ManifestPlan(manifest: manifest, state: state, prune: true)
        #expect(pruned.changes.map(\.line) == ["- route old"])
        #expect(pruned.notInManifest.isEmpty)
    }

    @Test func swappingNeighboursIsOneMove() {
        var manifest = exported
        manifest.routes.swapAt(0, 1)
        let plan = ManifestPlan(manifest: manifest, state: state)
        #expect(plan.changes.count == 1)
        let move = plan.changes.first
        #expect(move?.action == .move)
        #expect(
            ["~ route profile: moved before old", "~ route search: moved before profile"].contains(move?.line ?? ""))
    }

    @Test func movingTheFirstRouteLastIsOneMove() {
        var manifest = exported
        manifest.routes.append(manifest.routes.removeFirst())
        let plan = ManifestPlan(manifest: manifest, state: state)
        #expect(plan.changes.map(\.line) == ["~ route profile: moved to the end"])
    }

    @Test func appAndDomainSettingsDiffByField() {
        var manifest = exported
        manifest.app.ios?.appStoreId = "284882215"
        manifest.domains[0].links = true
        let plan = ManifestPlan(manifest: manifest, state: state)
        #expect(
            plan.changes.map(\.line) == [
                "~ app badoo: ios.appStoreId (none) → 284882215", "~ domain m.badoo.com: links (none) → true",
            ])
    }

    @Test func aNewAppPlansEverythingAsAdds() {
        let empty = ManifestState(appID: "badoo", app: nil)
        let plan = ManifestPlan(manifest: exported, state: empty)
        #expect(plan.changes.map(\.action) == [.add, .add, .add, .add, .add])
        #expect(!plan.basis.appExists)
    }

    @Test func thePlanRecordsTheStateItCameFrom() {
        let plan = ManifestPlan(manifest: exported, state: state)
        #expect(plan.basis.fingerprint == state.fingerprint)
        #expect(plan.basis.routes == 3)
        // Any write to the app moves its etag, and so the fingerprint.
        #expect(ManifestFixture.state(appEtag: "e2").fingerprint != state.fingerprint)
        var reordered = ManifestFixture.routes
        reordered.swapAt(0, 1)
        #expect(ManifestFixture.state(routes: reordered).fingerprint != state.fingerprint)
    }

    @Test(arguments: [
        ([3, 1, 2], [1, 2]), ([1, 2, 3], [0, 1, 2]), ([], []), ([2, 1], [1]), ([5, 1, 4, 2, 3], [1, 3, 4]),
    ])
    func longestIncreasingRun(values: [Int], expected: [Int]) {
        #expect(ManifestPlan.longestIncreasing(values) == expected)
    }
}
