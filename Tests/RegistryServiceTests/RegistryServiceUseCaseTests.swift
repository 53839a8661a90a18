import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import Testing

/// The use cases called on `RegistryService` itself against a real PostgreSQL: no HTTP, no JSON-RPC, no
/// runtime. What a write returns, what the snapshot serves afterwards, and what the audit log recorded.
@Suite("RegistryService: use cases, called directly")
struct RegistryServiceUseCaseTests {
    let fixture: ServiceFixture
    var service: RegistryService { fixture.service }
    let admin = ServiceFixture.admin

    init() throws { fixture = try ServiceFixture(suite: "service_use_cases") }

    @Test func creatingAppDomainAndRoutesThenPublishingChangesTheServedAASA() throws {
        try fixture.seedApp()
        #expect(try service.getApp("badoo").meta.name == ResourceName.app("badoo").description)
        #expect(try service.getDomain("m.badoo.com").value.apps == ["badoo"])
        let before = try fixture.aasa()
        #expect(before?.paths.contains("/u/*") != true)
        #expect(try fixture.check("5.11.0", "https://m.badoo.com/u/42").reason == .noRoute)

        let profile = try service.createRoute(
            ServiceFixture.route("profile", path: "/u/*"), app: "badoo", before: nil, by: admin)
        let help = try service.createRoute(
            Route(id: "help", pattern: URLPattern(path: "/help/*"), action: .exclude), app: "badoo",
            before: "profile", by: admin)
        #expect(profile.meta.name == ResourceName.route(app: "badoo", id: "profile").description)
        #expect(help.position == 0)
        #expect(service.snapshot.registry.routes["badoo"]?.map(\.id) == ["help", "profile"])
        // No live version handles /u/* yet: the AASA does not change.
        #expect(try fixture.aasa()?.revision == before?.revision)

        let published = try service.changeRelease(ServiceFixture.key("5.11.0"), to: .live, by: admin)
        #expect(published.release.state == .live && published.release.publishTime != nil)
        let aasaRef = try #require(published.revisions.first { $0.host == "m.badoo.com" && $0.kind == .aasa })
        #expect(aasaRef.changed)
        let after = try #require(try fixture.aasa())
        #expect(after.revision == aasaRef.revision && after.revision > (before?.revision ?? 0))
        #expect(after.paths == ["!?{\"ul_fallback\":\"?*\"}", "!/help/*", "/u/*"])
        #expect(service.snapshot.document(host: "m.badoo.com", kind: .aasa)?.cause == "Releases.Publish ios 5.11.0")

        let opens = try fixture.check("5.11.0", "https://m.badoo.com/u/42")
        #expect(opens.decision == .openInApp && opens.route == "profile")
        let excluded = try fixture.check("5.11.0", "https://m.badoo.com/help/faq")
        #expect(excluded.decision == .openInBrowser && excluded.reason == .excluded)
        let tooOld = try fixture.check("4.9", "https://m.badoo.com/u/42")
        #expect(tooOld.decision == .openInBrowser && tooOld.reason == .unsupportedVersion)
        #expect(tooOld.supportedSince == "5.0")

        // Every write is in the audit log, newest first, by the caller.
        let audit = try fixture.audit()
        #expect(
            audit.map(\.method) == [
                "Releases.Publish", "Routes.Create", "Routes.Create", "Domains.Create", "Apps.Create",
            ])
        #expect(audit.allSatisfy { $0.actor == RegistryService.bootstrapActor })
    }

    @Test func switchingARouteOffForAVersionChangesTheDecisionAndBackAgain() throws {
        try fixture.seedApp()
        _ = try service.createRoute(ServiceFixture.route("profile", path: "/u/*"), app: "badoo", before: nil, by: admin)
        _ = try service.changeRelease(ServiceFixture.key("5.11.0"), to: .live, by: admin)
        _ = try service.changeRelease(ServiceFixture.key("5.12.0"), to: .live, by: admin)
        let url = "https://m.badoo.com/u/42"
        #expect(try fixture.check("5.12.0", url).decision == .openInApp)
        let published = try #require(try fixture.aasa())

        let off = try service.switchRoute(
            off: true, app: "badoo", id: "profile", platform: .ios, versions: [ServiceFixture.version("5.12.0")],
            reason: "crash in 5.12.0", by: admin)
        #expect(
            off.route.switchedOff[.ios] == [
                SwitchedOff(version: ServiceFixture.version("5.12.0"), reason: "crash in 5.12.0")
            ])
        let killed = try fixture.check("5.12.0", url)
        #expect(killed.decision == .openInBrowser && killed.reason == .switchedOff && killed.route == "profile")
        #expect(killed.fallbackUrl == "https://m.badoo.com/u/42?ul_fallback=1")
        // Only the version switched off falls back; 5.11.0 still handles the route, so /u/* stays in the AASA.
        #expect(try fixture.check("5.11.0", url).decision == .openInApp)
        let switched = try #require(try fixture.aasa())
        #expect(switched.revision == published.revision && switched.paths.contains("/u/*"))
        // Switched off for 5.11.0 as well, no live version handles it: the AASA drops it.
        _ = try service.switchRoute(
            off: true, app: "badoo", id: "profile", platform: .ios, versions: [ServiceFixture.version("5.11.0")],
            reason: nil, by: admin)
        #expect(try fixture.check("5.11.0", url).reason == .switchedOff)
        let dropped = try #require(try fixture.aasa())
        #expect(dropped.revision == published.revision + 1 && !dropped.paths.contains("/u/*"))

        _ = try service.switchRoute(
            off: false, app: "badoo", id: "profile", platform: .ios,
            versions: [ServiceFixture.version("5.11.0"), ServiceFixture.version("5.12.0")], reason: nil, by: admin)
        #expect(try fixture.check("5.12.0", url).decision == .openInApp)
        #expect(try fixture.check("5.11.0", url).decision == .openInApp)
        #expect(service.snapshot.registry.routes["badoo"]?.first?.switchedOff.isEmpty == true)
        let restored = try #require(try fixture.aasa())
        #expect(restored.revision == dropped.revision + 1 && restored.paths.contains("/u/*"))
        #expect(
            try fixture.audit().prefix(3).map(\.method) == [
                API.RoutesSwitchOn.name, API.RoutesSwitchOff.name, API.RoutesSwitchOff.name,
            ])
    }

    @Test func retiringTheOnlyLiveReleaseTakesItsRoutesOutOfTheAASA() throws {
        try fixture.seedApp()
        _ = try service.createRoute(ServiceFixture.route("profile", path: "/u/*"), app: "badoo", before: nil, by: admin)
        _ = try service.changeRelease(ServiceFixture.key("5.11.0"), to: .live, by: admin)
        #expect(try fixture.aasa()?.paths.contains("/u/*") == true)

        let retired = try service.changeRelease(ServiceFixture.key("5.11.0"), to: .retired, by: admin)
        #expect(retired.release.state == .retired && retired.release.retireTime != nil)
        #expect(try service.getRelease(ServiceFixture.key("5.11.0")).state == .retired)
        let aasa = try #require(try fixture.aasa())
        #expect(!aasa.paths.contains("/u/*"))
        #expect(service.snapshot.registry.liveVersions(app: "badoo", platform: .ios).isEmpty)

        // A draft never shaped a file: retiring it is refused; an unknown version is not found.
        let draft = ServiceFixture.key("5.12.0")
        _ = try service.createRelease(draft, by: admin)
        let refused = try #require(throws: RegistryError.self) {
            try service.changeRelease(draft, to: .retired, by: admin)
        }
        let draftName = ResourceName.release(app: "badoo", platform: .ios, version: draft.version)
        #expect(refused.code == .failedPrecondition)
        #expect(refused.message == "\(draftName) is a draft: only live releases can be retired")
        let unknown = try #require(throws: RegistryError.self) {
            try service.changeRelease(ServiceFixture.key("9.9"), to: .retired, by: admin)
        }
        #expect(unknown.code == .notFound)
        #expect(try fixture.aasa()?.revision == aasa.revision)
    }

    /// The service has no import use case of its own: `routereg aasa import` sends one `Routes.BatchCreate`,
    /// which is `createRoutes`.
    @Test func aBatchCreatesEveryRouteOrNone() throws {
        try fixture.seedApp()
        _ = try service.createRoute(ServiceFixture.route("profile", path: "/u/*"), app: "badoo", before: nil, by: admin)
        let batch = try service.createRoutes(
            [ServiceFixture.route("search", path: "/s/*"), ServiceFixture.route("chat", path: "/c/*")], app: "badoo",
            before: "profile", by: admin)
        #expect(batch.routes.map(\.route.id) == ["search", "chat"])
        #expect(batch.routes.map(\.position) == [0, 1])
        #expect(service.snapshot.registry.routes["badoo"]?.map(\.id) == ["search", "chat", "profile"])
        let audited = try fixture.audit().count

        let taken = try #require(throws: RegistryError.self) {
            try service.createRoutes(
                [ServiceFixture.route("new", path: "/n/*"), ServiceFixture.route("chat", path: "/c2/*")],
                app: "badoo", before: nil, by: admin)
        }
        #expect(taken.code == .alreadyExists)
        #expect(taken.message == "\(ResourceName.route(app: "badoo", id: "chat")) already exists")
        #expect(taken.fieldViolations == [FieldViolation(field: "routes[1].id", description: "is taken")])
        #expect(
            try service.listRoutes(app: "badoo", PageRequest()).items.map(\.route.id) == ["search", "chat", "profile"])
        #expect(try fixture.audit().count == audited)
    }

    @Test func tokensAuthenticateByRoleUntilRevoked() throws {
        #expect(
            try service.authenticate(secret: ServiceFixture.adminSecret)
                == Principal(id: RegistryService.bootstrapActor, role: .admin))
        #expect(try service.authenticate(secret: ServiceFixture.adminSecret + "x") == nil)
        #expect(try service.authenticate(secret: "") == nil)

        let releaser = try service.createToken(.init(displayName: "CI", role: .releaser), by: admin)
        let reader = try service.createToken(.init(displayName: "Dashboard", role: .reader), by: admin)
        #expect(releaser.secret.hasPrefix("rr_") && releaser.secret != reader.secret)
        let asReleaser = try #require(try service.authenticate(secret: releaser.secret))
        #expect(asReleaser == Principal(id: releaser.token.id, role: .releaser))
        #expect(try service.authenticate(secret: reader.secret) == Principal(id: reader.token.id, role: .reader))
        // What the roles allow: a releaser publishes but does not manage tokens; a reader only reads.
        #expect(asReleaser.role >= API.ReleasesPublish.access && asReleaser.role < API.TokensCreate.access)
        #expect(Access.reader >= API.AuditList.access && Access.reader < API.RoutesCreate.access)

        let revoked = try service.revokeToken(releaser.token.id, by: admin)
        #expect(revoked.revokeTime != nil)
        #expect(try service.authenticate(secret: releaser.secret) == nil)
        #expect(try service.authenticate(secret: reader.secret)?.role == .reader)
        // Only hashes are stored: no audit entry holds a secret.
        let audit = try fixture.audit()
        #expect(audit.map(\.method) == [API.TokensRevoke.name, API.TokensCreate.name, API.TokensCreate.name])
        for entry in audit {
            let recorded = "\(entry.before.map { "\($0)" } ?? "") \(entry.after.map { "\($0)" } ?? "")"
            #expect(!recorded.contains(releaser.secret) && !recorded.contains(reader.secret))
        }

        let publicRole = try #require(throws: RegistryError.self) {
            try service.createToken(.init(displayName: "nobody", role: .public), by: admin)
        }
        #expect(publicRole.fieldViolations.map(\.field) == ["token.role"])
        let unknown = try #require(throws: RegistryError.self) { try service.revokeToken("tok_nope", by: admin) }
        #expect(unknown.code == .notFound && unknown.message == "\(ResourceName.token("tok_nope")) not found")
    }

    @Test func aRetriedWriteReturnsItsFirstOutcomeAndWritesNothing() throws {
        try fixture.seedApp()
        _ = try service.changeRelease(ServiceFixture.key("5.11.0"), to: .live, by: admin)
        let caller = Caller(actor: RegistryService.bootstrapActor, requestID: "http-1", idempotencyKey: "retry-1")
        let first = try service.createRoute(
            ServiceFixture.route("profile", path: "/u/*"), app: "badoo", before: nil, by: caller)
        let aasa = try #require(try fixture.aasa())
        #expect(aasa.paths.contains("/u/*"))
        let audited = try fixture.audit().count
        let generation = service.snapshot.generation

        // This caller sends no params fingerprint (the API sends one with every key; IdempotentWriteTests), so
        // params are not compared: the key says "this is the same call", the first outcome comes back, and
        // nothing is written: /o/* (handled by the live 5.11.0) would have made a new AASA revision.
        let retried = try service.createRoute(
            ServiceFixture.route("other", path: "/o/*"), app: "badoo", before: nil, by: caller)
        #expect(retried.route.id == "profile")
        #expect(retried.meta == first.meta)
        #expect(try fixture.audit().count == audited)
        #expect(service.snapshot.generation == generation)
        #expect(service.snapshot.registry.routes["badoo"]?.map(\.id) == ["profile"])
        #expect(try fixture.aasa()?.revision == aasa.revision)
        #expect(try fixture.aasa()?.paths.contains("/o/*") == false)
        let revisions = try service.listRevisions(.init(.init(host: "m.badoo.com", kind: .aasa)))
        #expect(revisions.items.first?.revision == aasa.revision)

        // The key is per method: publishing with it writes once; publishing again with it replays.
        let published = try service.changeRelease(ServiceFixture.key("5.12.0"), to: .live, by: caller)
        #expect(try fixture.audit().count == audited + 1)
        let republished = try service.changeRelease(ServiceFixture.key("5.12.0"), to: .live, by: caller)
        #expect(republished.release == published.release)
        #expect(republished.revisions == published.revisions)
        #expect(try fixture.audit().count == audited + 1)

        // The key is per actor too: another caller's same key is another call.
        let other = Caller(actor: "tok_other", idempotencyKey: "retry-1")
        let theirs = try service.createRoute(
            ServiceFixture.route("other", path: "/o/*"), app: "badoo", before: nil, by: other)
        #expect(theirs.route.id == "other")
        #expect(try fixture.audit().first?.actor == "tok_other")
        #expect(try fixture.audit().count == audited + 2)
        #expect(try fixture.aasa()?.revision == aasa.revision + 1)
    }
}
