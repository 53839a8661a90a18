import Foundation
import RegistryTesting
import Testing

/// SQL metacharacters, NUL bytes, 100 KB patterns and over-long ids in every string field of every
/// create and update method: refused INVALID_ARGUMENT or stored verbatim, never INTERNAL, never leaking
/// internals, and the database unharmed.
@Suite("Malicious values")
struct MaliciousValueTests {
    static let sqlValues = [
        "x'; DROP TABLE audit; --", "\" OR 1=1 --", "'); DELETE FROM apps; --", "$1", "\\x00", "%' ESCAPE '\\",
    ]
    static let nul = "a\u{0000}b"

    /// One request whose string fields are replaced one at a time. `make(n)` gives a fresh valid request
    /// (ids made unique by `n`); `fields` are the paths of its string fields.
    struct Case: Sendable {
        let method: String
        let make: @Sendable (Int) -> [String: Any]
        let fields: [[PathKey]]
    }

    enum PathKey: Sendable {
        case key(String)
        case index(Int)
    }

    static func replacing(_ value: Any, at path: ArraySlice<PathKey>, with text: String) -> Any {
        guard let first = path.first else { return text }
        switch first {
        case .key(let key):
            var object = value as? [String: Any] ?? [:]
            object[key] = replacing(object[key] as Any, at: path.dropFirst(), with: text)
            return object
        case .index(let index):
            var array = value as? [Any] ?? []
            if array.count <= index { array.append("") }
            array[index] = replacing(array[index], at: path.dropFirst(), with: text)
            return array
        }
    }

    static func k(_ names: String...) -> [PathKey] {
        names.map { Int($0).map(PathKey.index) ?? .key($0) }
    }

    static let app = "evil"

    /// The methods that store what they are given.
    static let storing: Set = [
        "Apps.Create", "Apps.Update", "Domains.Create", "Routes.Create", "Routes.Update", "Routes.SwitchOff",
        "Routes.Reorder", "Releases.Publish", "Releases.Create", "Tokens.Create",
    ]

    static let cases: [Case] = [
        Case(
            method: "Apps.Create", make: { n in Fixture.app("new\(n)") },
            fields: [
                k("app", "id"), k("app", "displayName"), k("app", "ios", "appIds", "0"),
                k("app", "android", "packageName"),
                k("app", "android", "sha256CertFingerprints", "0"), k("app", "schemes", "0"),
                k("app", "fallback", "queryItem"), k("app", "fallback", "value"),
            ]),
        Case(
            method: "Apps.Update", make: { _ in Fixture.app(app) },
            fields: [
                k("app", "displayName"), k("app", "ios", "appIds", "0"), k("app", "fallback", "queryItem"), k("etag"),
            ]),
        Case(
            method: "Domains.Create", make: { n in ["domain": ["host": "d\(n).evil.example.com", "apps": [app]]] },
            fields: [
                k("domain", "host"), k("domain", "apps", "0"), k("domain", "aliasOf"),
                k("domain", "substitutionVariables", "lang", "0"),
            ]),
        Case(
            method: "Routes.Create",
            make: { n in ["app": app, "route": Fixture.route("c\(n)", path: "/c\(n)/*")] },
            fields: [
                k("app"), k("before"), k("route", "id"), k("route", "pattern", "path"), k("route", "pattern", "query"),
                k("route", "pattern", "fragment"), k("route", "pattern", "scheme"),
                k("route", "platforms", "ios", "since"),
                k("route", "platforms", "ios", "until"), k("route", "comment"), k("route", "webFallback"),
                k("route", "domains", "0"), k("route", "action"),
            ]),
        Case(
            method: "Routes.Update", make: { _ in ["app": app, "route": Fixture.route("r", path: "/r/*")] },
            fields: [k("route", "pattern", "path"), k("route", "comment"), k("route", "pattern", "query"), k("etag")]),
        Case(
            method: "Routes.SwitchOff",
            make: { _ in ["app": app, "route": "r", "platform": "ios", "versions": ["1.0"], "reason": "r"] },
            fields: [k("app"), k("route"), k("platform"), k("versions", "0"), k("reason")]),
        Case(
            method: "Routes.Reorder", make: { _ in ["app": app, "order": ["r"]] }, fields: [k("app"), k("order", "0")]),
        Case(
            method: "Releases.Publish", make: { n in ["app": app, "platform": "ios", "version": "4.\(n)"] },
            fields: [k("app"), k("platform"), k("version")]),
        Case(
            method: "Releases.Create", make: { n in ["app": app, "platform": "android", "version": "\(n + 100)"] },
            fields: [k("app"), k("version")]),
        Case(
            method: "Tokens.Create", make: { n in ["token": ["displayName": "t\(n)", "role": "reader"]] },
            fields: [k("token", "displayName"), k("token", "role")]),
        Case(method: "Tokens.Revoke", make: { _ in ["id": "nobody"] }, fields: [k("id")]),
        Case(method: "Routes.Delete", make: { _ in ["app": app, "route": "absent"] }, fields: [k("app"), k("route")]),
        Case(method: "Domains.Delete", make: { _ in ["host": "absent.example.com"] }, fields: [k("host")]),
        Case(method: "Apps.Delete", make: { _ in ["app": "absent"] }, fields: [k("app")]),
        Case(
            method: "CanOpen.Check",
            make: { _ in ["app": app, "platform": "ios", "version": "1.0", "url": "https://evil.example.com/r/1"] },
            fields: [k("app"), k("version"), k("url")]),
        Case(method: "Audit.List", make: { _ in [:] }, fields: [k("pageToken"), k("resource")]),
    ]

    @Test("SQL metacharacters and NUL in every string field: INVALID_ARGUMENT or stored verbatim, never INTERNAL")
    func everyStringField() async throws {
        let server = try TestRegistryServer(suite: "malicious")
        defer { server.shutdown() }
        let client = RegistryClient(baseURL: server.baseURL, token: TestRegistryServer.adminToken)
        try await Fixture.seed(client, app: Self.app)
        _ = try await client.result("Routes.Create", ["app": Self.app, "route": Fixture.route("r", path: "/r/*")])
        _ = try await client.result("Releases.Publish", ["app": Self.app, "platform": "ios", "version": "1.0"])

        var problems: [String] = []
        var counter = 0
        var nulCodes: [Int: Int] = [:]
        for testCase in Self.cases {
            for field in testCase.fields {
                for value in Self.sqlValues + [Self.nul, "/r/" + Self.nul, Self.nul + "1.0"] {
                    counter += 1
                    let params = Self.replacing(testCase.make(counter), at: field[...], with: value) as! [String: Any]
                    let where_ = "\(testCase.method) \(field) = \(value.debugDescription)"
                    let (object, status) = try await client.call(testCase.method, params)
                    if status >= 500 { problems.append("\(where_): HTTP \(status)") }
                    let error = object["error"] as? [String: Any]
                    let code = error?["code"] as? Int
                    if let code, [13, -32603].contains(code) { problems.append("\(where_): INTERNAL \(error ?? [:])") }
                    if let error {
                        let leaks = ErrorHygiene.leaks(inJSON: error, allowed: Self.sqlValues)
                        if !leaks.isEmpty { problems.append("\(where_): the error shows \(leaks): \(error)") }
                    }
                    // Creates and updates must refuse a NUL; lookups (deletes, checks, filters) may simply
                    // find nothing, as long as they answer cleanly (checked above).
                    if value.contains("\u{0000}") && Self.storing.contains(testCase.method) {
                        nulCodes[code ?? 0, default: 0] += 1
                        // An etag is only compared, never stored: a NUL one is simply stale (ABORTED).
                        let isEtag = "\(field)".contains("etag")
                        if code != 3 && code != -32602 && !(isEtag && code == 10) {
                            problems.append("\(where_): a NUL byte was not refused as invalid (\(object))")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
        #expect(counter > 400)

        // Values that were stored come back byte for byte, and no table was harmed.
        var updated = try #require(Fixture.app(Self.app)["app"] as? [String: Any])
        updated["displayName"] = Self.sqlValues[0]
        _ = try await client.result("Apps.Update", ["app": updated])
        let app = try await client.result("Apps.Get", ["app": Self.app])
        #expect(app["displayName"] as? String == Self.sqlValues[0])
        let routes = try await client.all("Routes.List", ["app": Self.app], key: "routes")
        #expect(routes.contains { $0["id"] as? String == "r" })
        let audit = try await client.all("Audit.List", [:], key: "entries")
        #expect(audit.count > 5)
        let violations = try await RegistryInvariants(client: client, app: Self.app, hosts: Fixture.hosts(Self.app))
            .violations()
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("100 KB patterns and over-long ids are refused or handled, promptly and without INTERNAL")
    func hugeValues() async throws {
        let server = try TestRegistryServer(suite: "huge")
        defer { server.shutdown() }
        let client = RegistryClient(baseURL: server.baseURL, token: TestRegistryServer.adminToken)
        try await Fixture.seed(client, app: Self.app)
        _ = try await client.result("Releases.Publish", ["app": Self.app, "platform": "ios", "version": "1.0"])
        let hundredKB = 100 * 1024
        let patterns = [
            "/" + String(repeating: "a", count: hundredKB), "/" + String(repeating: "*a", count: hundredKB / 2),
            "/" + String(repeating: "?", count: hundredKB), "/" + String(repeating: "%E2%82%AC", count: hundredKB / 9),
        ]
        for (index, path) in patterns.enumerated() {
            let (object, status) = try await client.call(
                "Routes.Create", ["app": Self.app, "route": Fixture.route("big\(index)", path: path)])
            #expect(status == 200)
            let code = (object["error"] as? [String: Any])?["code"] as? Int
            // -32602: the document's maxLength (1024) on a path refuses it before anything else.
            #expect(
                code == nil || code == 3 || code == 9 || code == -32602,
                "pattern \(index): \(String(describing: object["error"]).prefix(300))")
            // Whatever was stored, matching a URL as long as the document allows (8192) stays possible.
            let check = try await client.call(
                "CanOpen.Check",
                [
                    "app": Self.app, "platform": "ios", "version": "1.0",
                    "url": "https://evil.example.com/" + String(repeating: "a", count: 8_000) + "b",
                ])
            #expect(check.object["result"] != nil, "CanOpen.Check after pattern \(index): \(check.object)")
        }
        let tooLong = try await client.call(
            "CanOpen.Check",
            [
                "app": Self.app, "platform": "ios", "version": "1.0",
                "url": "https://evil.example.com/" + String(repeating: "a", count: 50_000),
            ])
        #expect((tooLong.object["error"] as? [String: Any])?["code"] as? Int == -32602)
        let longID = String(repeating: "a", count: 10_000)
        let attempts: [(String, [String: Any])] = [
            ("Apps.Create", Fixture.app(longID)),
            ("Routes.Create", ["app": Self.app, "route": Fixture.route(longID, path: "/x")]),
            (
                "Domains.Create",
                ["domain": ["host": String(repeating: "a", count: 300) + ".example.com", "apps": [Self.app]]]
            ),
            ("Apps.Get", ["app": longID]),
            ("Routes.Get", ["app": Self.app, "route": longID]),
            ("Tokens.Revoke", ["id": longID]),
            (
                "Releases.Publish",
                ["app": Self.app, "platform": "ios", "version": String(repeating: "1", count: 10_000)]
            ),
        ]
        for (method, params) in attempts {
            let (object, status) = try await client.call(method, params)
            let error = object["error"] as? [String: Any]
            #expect(status == 200 && error != nil, "\(method) accepted a 10,000-character id")
            let code = error?["code"] as? Int
            #expect(code == 3 || code == 5 || code == -32602, "\(method): \(String(describing: error).prefix(300))")
            #expect(
                ErrorHygiene.leaks(inJSON: error ?? [:]).isEmpty, "\(method): \(String(describing: error).prefix(300))")
        }
    }
}
