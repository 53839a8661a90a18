import RouteCore
import Testing

/// The pure parts of applying a plan: a prune limited to managed routes, the order after applying, naming
/// what differs from a reviewed plan, and which removals live versions would notice.
@Suite struct ManifestPlanApplyTests {
    let exported = Manifest(exporting: ManifestFixture.state())!

    @Test func aPruneKeepsRoutesManagedByHand() {
        var manifest = exported
        manifest.routes.removeAll { $0.id == "old" || $0.id == "search" }
        let state = ManifestFixture.state(managed: ["profile", "search"])
        let plan = ManifestPlan(manifest: manifest, state: state, prune: true)
        #expect(plan.changes.map(\.line) == ["- route search"])
        #expect(plan.notInManifest == [.init(kind: .route, id: "old", managed: false)])
        #expect(
            plan.lines.last == "  route old: not in manifest (kept: not managed by a manifest, so a prune keeps it too)"
        )
        #expect(plan.prune == true)
        #expect(ManifestPlan(manifest: manifest, state: state).prune == nil)
    }

    @Test func aDomainLeftOutIsKeptEvenByAPrune() {
        var manifest = exported
        manifest.domains = []
        let plan = ManifestPlan(manifest: manifest, state: ManifestFixture.state(), prune: true)
        #expect(!plan.hasChanges)
        #expect(
            plan.lines == [
                "  domain m.badoo.com: not in manifest (kept: a manifest never removes a domain, other apps may share it)"
            ])
    }

    @Test func theOrderFollowsTheManifestAndKeepsHandRoutesBesideTheirNeighbour() {
        // hand sat before b; b moves first, c is new, x is removed.
        let order = ManifestPlan.order(
            manifest: ["b", "a", "c"], current: ["a", "hand", "b", "x", "last"], removed: ["x"])
        #expect(order == ["hand", "b", "a", "c", "last"])
        #expect(ManifestPlan.order(manifest: [], current: ["a", "b"], removed: []) == ["a", "b"])
    }

    @Test func differencesNameEachResourceThatIsNotAsReviewed() throws {
        var manifest = exported
        manifest.routes[0].platforms[.ios] = VersionRange(since: try Version("5.1"))
        let reviewed = ManifestPlan(manifest: manifest, state: ManifestFixture.state())
        #expect(reviewed.differences(from: reviewed.changes) == [])
        // Someone set profile's since to 5.1 by hand: the reviewed change is no change now.
        var routes = ManifestFixture.routes
        routes[0].platforms[.ios] = VersionRange(since: try Version("5.1"))
        let now = ManifestPlan(manifest: manifest, state: ManifestFixture.state(routes: routes))
        #expect(
            now.differences(from: reviewed.changes) == [
                "route profile: reviewed \"~ route profile: since ios 5.0 → 5.1\", now no change"
            ])
    }

    @Test func aRemovalIsBreakingWhenALiveVersionOpensTheRoute() throws {
        var manifest = exported
        manifest.routes.removeAll { $0.id == "search" || $0.id == "old" }
        let state = ManifestFixture.state()
        let plan = ManifestPlan(manifest: manifest, state: state, prune: true)
        let live = [
            Release(app: "badoo", platform: .ios, version: try Version("5.2"), state: .live),
            Release(app: "badoo", platform: .ios, version: try Version("4.0"), state: .live),
            Release(app: "badoo", platform: .ios, version: try Version("6.0"), state: .draft),
        ]
        let breaking = plan.breakingRemovals(in: state, releases: live)
        // old has no versions: nobody opens it; search is opened by 5.2 (4.0 is before its since).
        #expect(breaking.map(\.route) == ["search"])
        #expect(
            breaking.first?.text
                == "route search (/s/* on every domain of the app): live ios 5.2 would lose these links")
        #expect(plan.breakingRemovals(in: state, releases: [live[1], live[2]]).isEmpty)
    }
}
