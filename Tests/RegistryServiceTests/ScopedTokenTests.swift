import Foundation
import JSONRPC
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// Scoped tokens (issue 31): a token limited to app `alpha` cannot write anything of app `beta` (every write
/// method of the table is tried, so a new one must say how it reaches `beta`), sees only `alpha` in every list
/// method, and can write alpha's section of a domain shared with beta without touching beta's.
@Suite(.serialized) struct ScopedTokenTests {
    static let alphaID = "ABCDE12345.com.example.alpha"
    static let betaID = "ABCDE12345.com.example.beta"

    static func route(_ id: String, _ path: String) -> [String: Any] {
        ["id": id, "pattern": ["path": path], "action": "open", "platforms": ["ios": ["since": "1.0"]]]
    }

    /// Two apps, a domain each, a domain and a link domain they share, a route, release and link each, and
    /// a token per app. Returns alpha's admin token secret and the ids of the tokens made.
    static func seed(_ server: TestRegistryServer) async throws -> (alpha: String, betaTokenID: String) {
        for (app, appID) in [("alpha", alphaID), ("beta", betaID)] {
            _ = try await server.result(
                "Apps.Create", ["app": ["id": app, "ios": ["appIds": [appID], "appStoreId": "351331194"]]])
            _ = try await server.result("Domains.Create", ["domain": ["host": "\(app).example.com", "apps": [app]]])
        }
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "shared.example.com", "apps": ["alpha", "beta"]]])
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "go.example.com", "apps": ["alpha", "beta"], "links": true]])
        for app in ["alpha", "beta"] {
            _ = try await server.result("Routes.Create", ["app": app, "route": route("r1", "/\(app)/*")])
            _ = try await server.result("Releases.Publish", ["app": app, "platform": "ios", "version": "1.0.0"])
            _ = try await server.result(
                "Links.Create",
                ["app": app, "link": ["code": "\(app)-link", "target": "https://\(app).example.com/\(app)/1"]])
        }
        let alpha = try await server.result(
            "Tokens.Create", ["token": ["displayName": "alpha team", "role": "admin", "apps": ["alpha"]]])
        let beta = try await server.result(
            "Tokens.Create", ["token": ["displayName": "beta team", "role": "admin", "apps": ["beta"]]])
        return (
            try #require(alpha.string("secret")), try #require(beta.object("token")?.string("id"))
        )
    }

    /// Params of every write method that reach app `beta` (or beyond alpha): the test fails for a write
    /// method missing here, so a new one cannot skip its scope check unnoticed.
    static func writesReachingBeta(betaTokenID: String) -> [String: [String: Any]] {
        let link: [String: Any] = ["code": "beta-2", "target": "https://beta.example.com/beta/2"]
        return [
            "Apps.Create": ["app": ["id": "gamma"]],
            "Apps.Update": ["app": ["id": "beta", "displayName": "Beta renamed", "ios": ["appIds": [betaID]]]],
            "Apps.Delete": ["app": "beta"],
            "Domains.Create": ["domain": ["host": "new.example.com", "apps": ["alpha", "beta"]]],
            "Domains.Delete": ["host": "shared.example.com"],
            "Routes.Create": ["app": "beta", "route": route("r2", "/x/*")],
            "Routes.BatchCreate": ["app": "beta", "routes": [route("r3", "/y/*")]],
            "Routes.Update": ["app": "beta", "route": route("r1", "/changed/*")],
            "Routes.Delete": ["app": "beta", "route": "r1"],
            "Routes.Reorder": ["app": "beta", "order": ["r1"]],
            "Routes.SwitchOff": [
                "app": "beta", "route": "r1", "platform": "ios", "versions": ["1.0.0"], "reason": "crash",
            ],
            "Routes.SwitchOn": ["app": "beta", "route": "r1", "platform": "ios", "versions": ["1.0.0"]],
            "Releases.Create": ["app": "beta", "platform": "ios", "version": "2.0.0"],
            "Releases.Publish": ["app": "beta", "platform": "ios", "version": "2.0.0"],
            "Releases.Retire": ["app": "beta", "platform": "ios", "version": "1.0.0"],
            "Associations.Preview": ["app": "beta", "platform": "ios", "version": "2.0.0", "action": "publish"],
            "Tokens.Create": ["token": ["displayName": "sneaky", "role": "admin", "apps": ["alpha", "beta"]]],
            "Tokens.Revoke": ["id": betaTokenID],
            "Links.Create": ["app": "beta", "link": link],
            "Links.BatchCreate": ["app": "beta", "links": [link]],
            "Links.Update": ["link": ["domain": "go.example.com", "code": "beta-link", "target": link["target"]!]],
            "Links.Delete": ["domain": "go.example.com", "code": "beta-link"],
            "Webhooks.Create": ["app": "beta", "webhook": ["url": "https://hooks.example.com/beta"]],
            "Webhooks.Delete": ["app": "beta", "id": "wh_0123456789abcdef"],
            "Webhooks.Deliveries": ["app": "beta", "id": "wh_0123456789abcdef"],
            "Webhooks.List": ["app": "beta"],
            "Manifests.Apply": ["manifest": ["app": ["id": "beta"], "routes": [route("r4", "/z/*")]]],
        ]
    }

    @Test func aTokenScopedToOneAppCannotWriteAnother() async throws {
        let server = try TestRegistryServer(suite: "scoped_writes")
        defer { server.shutdown() }
        let (alpha, betaTokenID) = try await Self.seed(server)
        let probes = Self.writesReachingBeta(betaTokenID: betaTokenID)
        // Every method above the reader role changes state, but for the lists (the list test has those) and
        // `Associations.Preview`, a dry run that is held to the same scope.
        let writes = API.all.filter { $0.access >= .releaser && !$0.name.hasSuffix(".List") }
        #expect(writes.count >= 20)
        let entriesBefore = try await auditCount(server)
        for method in writes {
            let params = try #require(probes[method.name], "\(method.name) writes: add how it reaches app beta")
            let response = try await server.call(method.name, params, token: alpha)
            let error = response.object("error")
            #expect(error?.int("code") == 7, "\(method.name): \(response)")
            let named = method.name == "Apps.Create" ? "apps/gamma" : "apps/beta"
            #expect(error?.string("message")?.contains(named) == true, "\(method.name): \(response)")
        }
        // Nor may it serve beta's rules on a host of its own, as an alias.
        let alias = try await server.call(
            "Domains.Create",
            ["domain": ["host": "alias.example.com", "apps": ["alpha"], "aliasOf": "beta.example.com"]], token: alpha)
        #expect(errorCode(alias) == 7 && "\(alias)".contains("apps/beta"), "\(alias)")
        // An all-apps token is beyond a scoped admin too, and nothing above was written.
        let allApps = try await server.call(
            "Tokens.Create", ["token": ["displayName": "everything", "role": "reader"]], token: alpha)
        #expect(errorCode(allApps) == 7)
        #expect(try await auditCount(server) == entriesBefore)
        let beta = try await server.result("Routes.Get", ["app": "beta", "route": "r1"])
        #expect(beta.object("pattern")?.string("path") == "/beta/*")

        // The same token may do all of that to its own app.
        _ = try await server.result(
            "Routes.Create", ["app": "alpha", "route": Self.route("r2", "/two/*")], token: alpha)
        _ = try await server.result(
            "Releases.Publish", ["app": "alpha", "platform": "ios", "version": "2.0.0"], token: alpha)
        let made = try await server.result(
            "Tokens.Create", ["token": ["displayName": "alpha ci", "role": "releaser", "apps": ["alpha"]]], token: alpha
        )
        let madeID = try #require(made.object("token")?.string("id"))
        _ = try await server.result("Tokens.Revoke", ["id": madeID], token: alpha)
        // Audit entries record the token that wrote them.
        let entries = try await server.result("Audit.List", ["resource": "apps/alpha/routes/r2"]).array("entries")
        let whoAmI = try await server.result("Tokens.WhoAmI", [:], token: alpha)
        #expect((entries.first as? [String: Any])?.string("actor") == whoAmI.string("id"))
        #expect(whoAmI.array("apps") as? [String] == ["alpha"])
    }

    @Test func aScopedTokenSeesOnlyItsAppsInEveryListMethod() async throws {
        let server = try TestRegistryServer(suite: "scoped_lists")
        defer { server.shutdown() }
        let (alpha, _) = try await Self.seed(server)
        // One check per list method that takes a token; a new list method fails here until it has one.
        let checks: [String: (params: [String: Any], check: ([String: Any]) -> Bool)] = [
            "Apps.List": ([:], { $0.array("apps").compactMap { ($0 as? [String: Any])?.string("id") } == ["alpha"] }),
            "Domains.List": (
                [:],
                {
                    $0.array("domains").compactMap { ($0 as? [String: Any])?.string("host") }
                        == ["alpha.example.com", "go.example.com", "shared.example.com"]
                }
            ),
            "Routes.List": (
                ["app": "alpha"],
                { $0.array("routes").compactMap { ($0 as? [String: Any])?.string("app") } == ["alpha"] }
            ),
            "Releases.List": (
                ["app": "alpha"],
                { $0.array("releases").compactMap { ($0 as? [String: Any])?.string("app") } == ["alpha"] }
            ),
            "Links.List": (
                [:], { $0.array("links").compactMap { ($0 as? [String: Any])?.string("app") } == ["alpha"] }
            ),
            "Webhooks.List": (
                ["app": "alpha"],
                {
                    let apps = $0.array("webhooks").compactMap { ($0 as? [String: Any])?.string("app") }
                    return !apps.isEmpty && apps.allSatisfy { $0 == "alpha" }
                }
            ),
            "Tokens.List": (
                [:],
                {
                    let tokens = $0.array("tokens").compactMap { $0 as? [String: Any] }
                    return tokens.map { $0.string("displayName") } == ["alpha team"]
                        && tokens.allSatisfy { $0.array("apps") as? [String] == ["alpha"] }
                }
            ),
            "Audit.List": (
                [:],
                {
                    let resources = $0.array("entries").compactMap { ($0 as? [String: Any])?.string("resource") }
                    return resources.contains("apps/alpha") && resources.contains("domains/shared.example.com")
                        && !resources.contains { $0.hasPrefix("apps/beta") || $0 == "domains/beta.example.com" }
                }
            ),
        ]
        for app in ["alpha", "beta"] {
            _ = try await server.result(
                "Webhooks.Create", ["app": app, "webhook": ["url": "https://hooks.example.com/\(app)"]])
        }
        for method in API.all where method.access != .public && method.name.hasSuffix(".List") {
            let (params, check) = try #require(checks[method.name], "\(method.name): add what alpha may see")
            let answer = try await server.result(method.name, params, token: alpha)
            #expect(check(answer), "\(method.name) as alpha: \(answer)")
            // The bootstrap admin (every app) still sees beta's: the filter is the token's, not the list's.
            let everything = try await server.result(
                method.name,
                ["Routes.List", "Releases.List", "Webhooks.List"].contains(method.name) ? ["app": "beta"] : [:])
            #expect(!check(everything), "\(method.name) as admin must see more than alpha")
        }
        // Reads that name beta are refused, naming it; those of a shared domain are not.
        let refused: [(String, [String: Any])] = [
            ("Apps.Get", ["app": "beta"]), ("Domains.Get", ["host": "beta.example.com"]),
            ("Domains.List", ["app": "beta"]), ("Routes.List", ["app": "beta"]),
            ("Routes.Get", ["app": "beta", "route": "r1"]),
            ("Releases.Get", ["app": "beta", "platform": "ios", "version": "1.0.0"]),
            ("Matrix.Get", ["app": "beta", "platform": "ios"]),
            ("Links.Get", ["domain": "go.example.com", "code": "beta-link"]),
            ("Links.Stats", ["domain": "go.example.com", "code": "beta-link"]),
            ("Links.List", ["app": "beta"]),
        ]
        for (method, params) in refused {
            let response = try await server.call(method, params, token: alpha)
            #expect(errorCode(response) == 7, "\(method) \(params): \(response)")
            #expect("\(response)".contains("apps/beta"), "\(method)")
        }
        _ = try await server.result("Domains.Get", ["host": "shared.example.com"], token: alpha)
        _ = try await server.result("Links.Get", ["domain": "go.example.com", "code": "alpha-link"], token: alpha)
        _ = try await server.result("Matrix.Get", ["app": "alpha", "platform": "ios"], token: alpha)
    }

    @Test func aSharedDomainIsWritableByEachForItsOwnSection() async throws {
        let server = try TestRegistryServer(suite: "scoped_shared")
        defer { server.shutdown() }
        let (alpha, _) = try await Self.seed(server)
        func details() async throws -> [String: String] {
            let document = try await server.result("Associations.Get", ["host": "shared.example.com"])
            let aasa = try #require(document.object("document")?.object("applinks"))
            var sections: [String: String] = [:]
            for case let detail as [String: Any] in aasa.array("details") {
                for case let id as String in detail.array("appIDs") { sections[id] = jsonText(detail) }
            }
            return sections
        }
        let before = try await details()
        #expect(before[Self.betaID] != nil && before[Self.alphaID] != nil)
        _ = try await server.result(
            "Routes.Create", ["app": "alpha", "route": Self.route("offers", "/offers/*")], token: alpha)
        let after = try await details()
        #expect(after[Self.alphaID] != before[Self.alphaID], "alpha's section has its new route")
        #expect(after[Self.alphaID]?.contains("offers") == true)
        #expect(after[Self.betaID] == before[Self.betaID], "beta's section is untouched")
        // Deleting the shared domain would take beta's section with it.
        let deleted = try await server.call("Domains.Delete", ["host": "shared.example.com"], token: alpha)
        #expect(errorCode(deleted) == 7)
        // The write's audit entry is alpha's, so the beta team's token does not see it.
        let betaToken = try await server.result(
            "Tokens.Create", ["token": ["displayName": "beta reader", "role": "reader", "apps": ["beta"]]])
        let secret = try #require(betaToken.string("secret"))
        let seen = try await server.result("Audit.List", [:], token: secret).array("entries")
            .compactMap { ($0 as? [String: Any])?.string("resource") }
        #expect(!seen.contains("apps/alpha/routes/offers"))
        #expect(seen.contains("domains/shared.example.com"))
    }

    @Test func anExpiredTokenIsToldWhenItExpired() async throws {
        let server = try TestRegistryServer(suite: "scoped_expiry")
        defer { server.shutdown() }
        // Long enough for the first call to pass on a loaded machine.
        let expiresAt = Date().addingTimeInterval(4)
        let created = try await server.result(
            "Tokens.Create",
            ["token": ["displayName": "short", "role": "reader", "expiresAt": expiresAt.formatted(.iso8601)]])
        let secret = try #require(created.string("secret"))
        let stamp = try #require(created.object("token")?.string("expiresAt"))
        _ = try await server.result("Apps.List", [:], token: secret)
        try await Task.sleep(for: .seconds(max(0, expiresAt.timeIntervalSinceNow) + 0.3))
        let refused = try await server.call("Apps.List", [:], token: secret)
        #expect(errorCode(refused) == 16)
        let message = try #require(refused.object("error")?.string("message"))
        #expect(message.contains("expired at \(stamp)"), "\(message)")
        // Expiry in the past, or past the creating token's own, is refused.
        let past = try await server.call(
            "Tokens.Create", ["token": ["displayName": "x", "role": "reader", "expiresAt": "2020-01-01T00:00:00Z"]])
        #expect(errorCode(past) == 3)
        let malformed = try await server.call(
            "Tokens.Create", ["token": ["displayName": "x", "role": "reader", "expiresAt": "next week"]])
        #expect(errorCode(malformed) == -32602)
        let limited = try await server.result(
            "Tokens.Create",
            [
                "token": [
                    "displayName": "admin for a day", "role": "admin",
                    "expiresAt": Date().addingTimeInterval(86_400).formatted(.iso8601),
                ]
            ])
        let daySecret: String = try #require(limited.string("secret"))
        let outliving = try await server.call(
            "Tokens.Create", ["token": ["displayName": "forever", "role": "reader"]], token: daySecret)
        #expect(errorCode(outliving) == 3)
        #expect("\(outliving)".contains("no later than"))
    }

    @Test func lastUseIsRecordedInMemoryThenWrittenInBatches() async throws {
        let server = try TestRegistryServer(suite: "scoped_last_use")
        defer { server.shutdown() }
        let created = try await server.result("Tokens.Create", ["token": ["displayName": "ci", "role": "reader"]])
        let secret = try #require(created.string("secret"))
        let id = try #require(created.object("token")?.string("id"))
        func listed() async throws -> [String: Any]? {
            try await server.result("Tokens.List", [:]).array("tokens").compactMap { $0 as? [String: Any] }
                .first { $0.string("id") == id }
        }
        #expect(try await listed()?.string("lastUsedAt") == nil)
        let store = server.service.store
        let stored = { try store.read { tx in try store.tokens.get(id, in: tx) } }
        _ = try await server.result("Apps.List", [:], token: secret)
        // Shown at once (from memory), though no request wrote it.
        let shown = try #require(try await listed()?.string("lastUsedAt"))
        #expect(try Date(shown, strategy: .iso8601).timeIntervalSinceNow > -30)
        server.service.flushTokenUses(deadline: .now + .seconds(5))
        let written = try #require(try stored()?.lastUsedAt)
        #expect(written.timeIntervalSinceNow > -30)
        #expect(server.service.tokenUses.pending(id) == nil)
    }

    @Test func failedSignInsAreLimitedPerAddressAndRecover() async throws {
        let server = try TestRegistryServer(
            suite: "scoped_sign_in", signInLimit: SignInLimiter.Policy(maxFailures: 3, lockout: .seconds(1)))
        defer { server.shutdown() }
        let body = try JSONSerialization.data(
            withJSONObject: ["jsonrpc": "2.0", "id": 1, "method": "Apps.List", "params": [:]])
        for _ in 0..<3 {
            let (data, response) = try await server.post(body, token: "rr_wrong")
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"code\":16"))
        }
        let (data, response) = try await server.post(body, token: "rr_wrong")
        #expect(response.statusCode == 429)
        #expect(response.value(forHTTPHeaderField: "Retry-After") == "1")
        #expect(String(decoding: data, as: UTF8.self).contains("RESOURCE_EXHAUSTED"))
        // A valid token from the same address is served meanwhile, and so is a call needing no token.
        let (_, valid) = try await server.post(body)
        #expect(valid.statusCode == 200)
        _ = try await server.result("Apps.List", [:])
        let (_, discovered) = try await server.post(
            try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": 1, "method": "rpc.discover"]),
            token: "rr_wrong")
        #expect(discovered.statusCode == 200)
        let (metrics, _) = try await server.get("/metrics")
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(text.contains("routereg_sign_in_lockouts_total 1"))
        #expect(text.contains("routereg_sign_in_limited_total 1"))
        #expect(text.contains("routereg_sign_in_failures_total 4"))
        try await Task.sleep(for: .milliseconds(1_200))
        let (_, recovered) = try await server.post(body, token: "rr_wrong")
        #expect(recovered.statusCode == 200)
    }
}
