import Foundation
import RegistryTesting
import Testing

/// Issue 41's rows about cost and unstorable text, against the real server: a second app `rt`, whose admin
/// and releaser tokens are scoped to it, beside `badoo`.
/// - rt cannot write patterns and variables whose product makes an anonymous `CanOpen.Check` expensive (the
///   write is refused naming the field and the bound, from the route's side and from the domain's), and a
///   URL over the API's length is refused before any matching;
/// - a NUL (or an unpaired surrogate) in any field of any method is INVALID_ARGUMENT naming the field, never
///   INTERNAL.
/// How fast the worst allowed Check is belongs to `make bench` (the `bounds` phase), not to a timed test.
@Suite(.serialized) struct TenantIsolationBoundsTests {
    static let rtHost = "m.rt.example.com"
    static let rtWide = "wide.rt.example.com"
    static let fiftyOne = (0..<51).map { "value\($0)" }

    struct Tenant {
        let server: TestRegistryServer
        let admin: String
        let releaser: String
    }

    /// badoo as in the reference scenario; rt with its own domain (4 values of `$(v)`), a link domain, and
    /// an admin and a releaser token scoped to it. Domains are made by the all-apps admin: which hosts a
    /// scoped admin may create is another row of the issue.
    static func seed(_ suite: String) async throws -> Tenant {
        let server = try TestRegistryServer(suite: suite)
        try await seedBadoo(server)
        // Host patterns, so rt's scoped admin may create its domains (TenantIsolationNamesTests is about those).
        _ = try await server.result(
            "Apps.Create",
            ["app": ["id": "rt", "ios": ["appIds": ["RTRTRT1234.com.rt.app"]], "hosts": ["*.rt.example.com"]]])
        _ = try await server.result(
            "Domains.Create",
            ["domain": ["host": rtHost, "apps": ["rt"], "substitutionVariables": ["v": ["a", "b", "c", "d"]]]])
        _ = try await server.result(
            "Domains.Create", ["domain": ["host": "go.rt.example.com", "apps": ["rt"], "links": true]])
        var secrets: [String] = []
        for role in ["admin", "releaser"] {
            let made = try await server.result(
                "Tokens.Create", ["token": ["displayName": "rt \(role)", "role": role, "apps": ["rt"]]])
            secrets.append(try #require(made.string("secret")))
        }
        return Tenant(server: server, admin: secrets[0], releaser: secrets[1])
    }

    static func route(_ id: String, query: String, domains: [String] = []) -> [String: Any] {
        [
            "id": id, "pattern": ["path": "/\(id)", "query": query], "platforms": ["ios": ["since": "1.0"]],
            "domains": domains,
        ]
    }

    /// The status, first field and message of an error answer (the params check answers -32602 with the same
    /// INVALID_ARGUMENT status and field details as the service's code 3).
    static func refusal(_ response: [String: Any]) -> (status: String?, field: String?, message: String) {
        let error = response.object("error")
        let details = (error?.object("data")?.array("details") ?? []).compactMap { $0 as? [String: Any] }
        return (error?.object("data")?.string("status"), details.first?.string("field"), error?.string("message") ?? "")
    }

    @Test func theIssuesVariablesTimesTokensAreRefusedFromEitherSide() async throws {
        let rt = try await Self.seed("bounds_product")
        defer { rt.server.shutdown() }
        let server = rt.server
        let sixtyFour = String(repeating: "$(v)", count: 64)
        // 64 tokens × 4 values is 256, the bound itself: accepted, but only on rt's own 4-value domain.
        _ = try await server.result(
            "Routes.Create", ["app": "rt", "route": Self.route("wide", query: sixtyFour, domains: [Self.rtHost])],
            token: rt.releaser)
        // A domain with 51 values the wide route does not apply to is fine (as in the issue).
        _ = try await server.result(
            "Domains.Create",
            ["domain": ["host": Self.rtWide, "apps": ["rt"], "substitutionVariables": ["v": Self.fiftyOne]]])

        // The issue's row: 64 `$(v)` where `$(v)` has 51 values.
        let create = try await server.call(
            "Routes.Create", ["app": "rt", "route": Self.route("greedy", query: sixtyFour)], token: rt.releaser)
        var refused = Self.refusal(create)
        #expect(errorCode(create) == 3 && refused.status == "INVALID_ARGUMENT", "\(create)")
        #expect(refused.field == "route.pattern.query", "\(create)")
        #expect(refused.message.contains("64 substitution tokens × 51 values exceeds 256"), "\(create)")
        #expect(refused.message.contains("domains/\(Self.rtWide)"), "\(create)")

        // The same from a batch, an update that widens the route's domains, and a domain written after the routes.
        let batch = try await server.call(
            "Routes.BatchCreate",
            ["app": "rt", "routes": [Self.route("ok", query: "$(v)"), Self.route("greedy", query: sixtyFour)]],
            token: rt.releaser)
        refused = Self.refusal(batch)
        #expect(errorCode(batch) == 3 && refused.field == "routes[1].pattern.query", "\(batch)")
        let update = try await server.call(
            "Routes.Update", ["app": "rt", "route": Self.route("wide", query: sixtyFour)], token: rt.releaser)
        refused = Self.refusal(update)
        #expect(errorCode(update) == 3 && refused.field == "route.pattern.query", "\(update)")
        // 51 values on another domain the wide route would apply to: the domain is refused, naming the variable.
        _ = try await server.result(
            "Routes.Update",
            ["app": "rt", "route": Self.route("wide", query: sixtyFour, domains: [Self.rtHost, "x.rt.example.com"])],
            token: rt.releaser)
        let domain = try await server.call(
            "Domains.Create",
            ["domain": ["host": "x.rt.example.com", "apps": ["rt"], "substitutionVariables": ["v": Self.fiftyOne]]],
            token: rt.admin)
        refused = Self.refusal(domain)
        #expect(errorCode(domain) == 3 && refused.field == "domain.substitutionVariables.v", "\(domain)")
        #expect(refused.message.contains("apps/rt/routes/wide"), "\(domain)")
        // A value longer than 64 characters is refused by the document's own rule.
        let long = try await server.call(
            "Domains.Create",
            [
                "domain": [
                    "host": "y.rt.example.com", "apps": ["rt"],
                    "substitutionVariables": ["v": [String(repeating: "a", count: 65)]],
                ]
            ],
            token: rt.admin)
        refused = Self.refusal(long)
        #expect(refused.status == "INVALID_ARGUMENT" && refused.field == "domain.substitutionVariables.v[0]", "\(long)")
        // Three more routes at 256 on rt's domain reach the app's total there (1,024); a fifth goes over it.
        for id in ["w2", "w3", "w4"] {
            _ = try await server.result(
                "Routes.Create", ["app": "rt", "route": Self.route(id, query: sixtyFour, domains: [Self.rtHost])],
                token: rt.releaser)
        }
        let fifth = try await server.call(
            "Routes.Create", ["app": "rt", "route": Self.route("w5", query: "$(v)", domains: [Self.rtHost])],
            token: rt.releaser)
        refused = Self.refusal(fifth)
        #expect(errorCode(fifth) == 3 && refused.field == "route.pattern", "\(fifth)")
        #expect(refused.message.contains("would offer 1028 substitution values in all, over the 1024"), "\(fifth)")
        // Nothing of that was written: badoo's answers are as before.
        let badoo = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.11.0", "url": "https://m.badoo.com/u/1"],
            token: nil)
        #expect(badoo.string("decision") == "open_in_app")
        #expect(errorCode(try await server.call("Routes.Get", ["app": "rt", "route": "greedy"])) == 5)
    }

    @Test func theLargestAllowedCombinationAnswersAndAnOverLongURLIsRefused() async throws {
        let rt = try await Self.seed("bounds_url")
        defer { rt.server.shutdown() }
        let server = rt.server
        // At the bound on rt's domain: 64 tokens × 4 values, and one plain value walk.
        _ = try await server.result(
            "Routes.Create", ["app": "rt", "route": Self.route("wide", query: String(repeating: "$(v)", count: 64))],
            token: rt.releaser)
        _ = try await server.result(
            "Releases.Publish", ["app": "rt", "platform": "ios", "version": "1.0"], token: rt.releaser)
        let prefix = "https://\(Self.rtHost)/wide?"
        let longest = prefix + String(repeating: "a", count: 8192 - prefix.count)
        let hit = prefix + String(repeating: "abcd", count: 16)
        for (url, decision) in [(longest, "open_in_browser"), (hit, "open_in_app")] {
            let answer = try await server.result(
                "CanOpen.Check", ["app": "rt", "platform": "ios", "version": "1.0", "url": url], token: nil)
            #expect(answer.string("decision") == decision, "\(url.prefix(60)): \(answer)")
        }
        // One character more is refused by the document's maxLength, on the plain fast path and the full one
        // (an escape sends the call to the full check), and by Links.Resolve.
        let over = longest + "a"
        let calls: [(String, [String: Any])] = [
            ("CanOpen.Check", ["app": "rt", "platform": "ios", "version": "1.0", "url": over]),
            (
                "CanOpen.Check",
                [
                    "app": "rt", "platform": "ios", "version": "1.0",
                    "url": over.replacingOccurrences(of: "?", with: "?\""),
                ]
            ),
            ("Links.Resolve", ["url": over, "platform": "ios", "version": "1.0"]),
        ]
        for (method, params) in calls {
            let response = try await server.call(method, params, token: nil)
            let refused = Self.refusal(response)
            #expect(errorCode(response) == -32602 && refused.status == "INVALID_ARGUMENT", "\(method): \(response)")
            #expect(refused.field == "url" && refused.message.contains("maxLength 8192"), "\(method): \(response)")
        }
    }

    @Test func aNULOrALoneSurrogateIsInvalidArgumentNamingTheFieldOnEveryMethod() async throws {
        let rt = try await Self.seed("bounds_nul")
        defer { rt.server.shutdown() }
        let server = rt.server
        let nul = "a\u{0000}b"
        let link: [String: Any] = ["target": "https://\(Self.rtHost)/p/1", "preview": ["title": nul]]
        let cases: [(method: String, params: [String: Any], token: String?, field: String)] = [
            ("Links.Create", ["app": "rt", "link": link], rt.releaser, "link.preview.title"),
            ("Links.BatchCreate", ["app": "rt", "links": [link]], rt.releaser, "links[0].preview.title"),
            (
                "Routes.Create", ["app": "rt", "route": ["id": "c", "pattern": ["path": "/c"], "comment": nul]],
                rt.releaser,
                "route.comment"
            ),
            ("Apps.Update", ["app": ["id": "rt", "displayName": nul]], rt.admin, "app.displayName"),
            (
                "Domains.Create",
                ["domain": ["host": "z.rt.example.com", "apps": ["rt"], "substitutionVariables": ["v": [nul]]]],
                rt.admin, "domain.substitutionVariables.v[0]"
            ),
            (
                "Tokens.Create", ["token": ["displayName": nul, "role": "reader", "apps": ["rt"]]], rt.admin,
                "token.displayName"
            ),
            (
                "CanOpen.Check",
                ["app": "rt", "platform": "ios", "version": "1.0", "url": "https://\(Self.rtHost)/\(nul)"], nil, "url"
            ),
            (
                "Links.Resolve", ["url": "https://go.rt.example.com/\(nul)", "platform": "ios", "version": "1.0"], nil,
                "url"
            ),
        ]
        let before = try await auditCount(server)
        for call in cases {
            let response = try await server.call(call.method, call.params, token: call.token)
            let refused = Self.refusal(response)
            #expect(refused.status == "INVALID_ARGUMENT", "\(call.method): \(response)")
            #expect(refused.field == call.field, "\(call.method): \(response)")
            #expect(refused.message.contains("U+0000"), "\(call.method): \(response)")
        }
        // An unpaired surrogate cannot be sent through JSONSerialization: raw params.
        let raw = try await post(
            server, "Links.Create",
            params: #"{"app":"rt","link":{"target":"https://\#(Self.rtHost)/p/2","preview":{"title":"\ud800"}}}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        let refused = Self.refusal(object)
        #expect(refused.status == "INVALID_ARGUMENT" && refused.field == "link.preview.title", "\(object)")
        #expect(try await auditCount(server) == before)
        // The same link without the NUL is created: the refusal was the NUL's.
        var clean = link
        clean["preview"] = ["title": "ab"]
        _ = try await server.result("Links.Create", ["app": "rt", "link": clean], token: rt.releaser)
    }
}
