import Foundation
import RouteCore
import Testing

/// The fingerprints of fixed params, written out (`WriteRequest.paramsFingerprint()`).
///
/// During a rolling upgrade a retry can reach a server of the next release, which compares the fingerprint the
/// previous release recorded for the `requestId` with its own. So the same params must give the same
/// fingerprint in every release. A failure here means a change altered how decoded params are encoded (a
/// field renamed, a default now emitted, number, version or string formatting) and genuine retries across the
/// upgrade would be refused as another call. Fix the encoding; never "fix" the test by updating a literal.
///
/// The literals were computed once, with the encoding as it stood when fingerprints were introduced (migration
/// 0016). Key order does not count (the encoding sorts keys); what each field encodes to, and which fields are
/// written, does.
@Suite struct ParamsFingerprintPinTests {
    struct Pin: Sendable, CustomTestStringConvertible {
        let method: String
        /// The params as a client sends them (`requestId` included where a client would send it).
        let params: String
        let fingerprint: String

        var testDescription: String { "\(method) \(params.prefix(72))" }
    }

    static let pins: [Pin] = [
        // Every optional absent; the route's defaults (`action`, empty `platforms`) filled in by decoding.
        Pin(
            method: "Routes.Create",
            params: #"{"app":"badoo","requestId":"k-1","route":{"id":"help","pattern":{"path":"/help/*"}}}"#,
            fingerprint: "edb741ca8b86f6fe315d5ac5d13a7e419566d1da4dc6544f9f8a3f378eb3bf29"),
        // Versions as written: `5.12` and `5.12.0` are equal versions but different text, so different calls.
        Pin(
            method: "Routes.Create",
            params: #"""
                {"app":"badoo","before":"profile","requestId":"since-5.12","route":{"id":"lookalikes",
                "pattern":{"path":"/l/a/*","query":{"ref":"?*"},"fragment":"top","caseSensitive":false,
                "percentEncoded":true},"action":"open","platforms":{"ios":{"since":"5.12","until":"6.0.0.1"},
                "android":{"since":4411}},"domains":["m.badoo.com"],"comment":"Lookalikes, \"beta\"\nsee é/ü"}}
                """#,
            fingerprint: "ec4fa8f5705d4454fe361557be14bf882dbf00235707a073921d82c73698f2b8"),
        Pin(
            method: "Routes.Create",
            params: #"""
                {"app":"badoo","before":"profile","requestId":"since-5.12.0","route":{"id":"lookalikes",
                "pattern":{"path":"/l/a/*","query":{"ref":"?*"},"fragment":"top","caseSensitive":false,
                "percentEncoded":true},"action":"open","platforms":{"ios":{"since":"5.12.0","until":"6.0.0.1"},
                "android":{"since":4411}},"domains":["m.badoo.com"],"comment":"Lookalikes, \"beta\"\nsee é/ü"}}
                """#,
            fingerprint: "07fa3c47291158ebbfd1fd3e2292265a6eba76df9b9f2901cc807df9d11da24f"),
        Pin(
            method: "Routes.BatchCreate",
            params: #"""
                {"app":"badoo","requestId":"import-7","routes":[
                {"id":"legacy","pattern":{"path":"/old/*","query":"x=1"},"action":"exclude"},
                {"id":"chat","pattern":{"scheme":"badoo","path":"/chat/*"},"platforms":{"ios":{"since":"5.0",
                "until":null}},"switchedOff":{"ios":[{"version":"5.3","reason":"crash"},{"version":"5.4"}]},
                "webFallback":"https://m.badoo.com/{path}?{query}"}]}
                """#,
            fingerprint: "7c0bdbfd8a8e9e55e899c6db201b846605b02d169dd31887dbd75a5e7f8ba6d5"),
        Pin(
            method: "Routes.Update",
            params: #"""
                {"app":"badoo","etag":"\"r-3\"","route":{"id":"help","pattern":{"path":"/help/*"},
                "platforms":{"android":{"since":"7.1.0"}}}}
                """#,
            fingerprint: "0a69df8d5930e66fd97e090ef004a495f9af38b453701028f2d8bd09042b818c"),
        Pin(
            method: "Routes.Delete", params: #"{"app":"badoo","route":"help","etag":"\"r-4\""}"#,
            fingerprint: "641ba48185240716529529d66094fcb0a6ce5501b5f7d2b21c2a239c260e0814"),
        Pin(
            method: "Routes.Reorder", params: #"{"app":"badoo","order":["profile","help","lookalikes"]}"#,
            fingerprint: "11c704d2654431357da253c589b061124b4b52671ecffeab7c8b203ed5b1da54"),
        Pin(
            method: "Routes.SwitchOff",
            params: #"""
                {"app":"badoo","route":"lookalikes","platform":"ios","versions":["5.12.0","5.12.1"],
                "reason":"crash in 5.12.0","requestId":"off-1"}
                """#,
            fingerprint: "47a2d93911697e8003ed4abcdbce4c2971f02fbbe306939bcf8d5a0316b8f6f2"),
        Pin(
            method: "Routes.SwitchOn",
            params: #"{"app":"badoo","route":"lookalikes","platform":"android","versions":[4411,"4412"]}"#,
            fingerprint: "e4d944ea4ac507f9c2fd17904b6aa076d08d0ed167f434628fe5472252c416bd"),
        Pin(
            method: "Releases.Publish",
            params: #"{"app":"badoo","platform":"ios","version":"5.12.0","requestId":"pub-5.12.0"}"#,
            fingerprint: "7bb61bbcf366b54f44f32c60f882e2d4eed6ddc78a114bf2a49cfd76d79b07c9"),
        Pin(
            method: "Releases.Publish", params: #"{"app":"badoo","platform":"ios","version":"5.12"}"#,
            fingerprint: "7e39a257ff3058ce2eb2fe3828b6cbbfd02137426f58d390a1e80029ec4d8c75"),
        Pin(
            method: "Releases.Create", params: #"{"app":"badoo","platform":"android","version":4411}"#,
            fingerprint: "2ed3addc715b6074fb4253c2e9e1836944cd8dc251cc7c39f4d284a44da8aaa2"),
        Pin(
            method: "Releases.Retire", params: #"{"app":"badoo","platform":"ios","version":"5.11.2.7"}"#,
            fingerprint: "7f45d9f1fe286e2734bb184020ce8765c1eaa9caf1265e2c09757e698626f5a6"),
        // A link with every field: campaign, tags, expiry (an RFC 3339 date, as written), a click cap, booleans.
        Pin(
            method: "Links.Create",
            params: #"""
                {"app":"badoo","requestId":"link-1","link":{"domain":"go.badoo.com","code":"summer",
                "target":"https://m.badoo.com/l/a/42?src=sms","desktopUrl":"https://badoo.com/summer",
                "preview":{"title":"Sommer ☀️ «Aktion»","description":"Tap to open","imageUrl":"https://cdn.badoo.com/s.png"},
                "ios":{"minVersion":"5.12","fallbackUrl":"https://apps.apple.com/app/id351331194"},
                "android":{"minVersion":"4411"},"expiresAt":"2027-06-30T23:59:59.5+02:00","skipLanding":true,
                "utm":{"source":"newsletter","medium":"email","campaign":"summer-sale","term":"dating","content":"b"},
                "tags":["q3","emea:de"],"disabled":false,"maxClicks":1000000}}
                """#,
            fingerprint: "c7e153627e3cd67ffd3f5f2565d261a7ae58ab45ab7bcd407e6cbecc4b64d2e3"),
        // Domain and code left to the server: they are left out of the encoding, as they decode.
        Pin(
            method: "Links.Create", params: #"{"app":"badoo","link":{"target":"https://m.badoo.com/help"}}"#,
            fingerprint: "26627232ec6d9bd2d3dadd2ea200533a13f77de4bcb180cda48cdba80078790f"),
        Pin(
            method: "Links.BatchCreate",
            params: #"""
                {"app":"badoo","requestId":"links-import-1","links":[
                {"target":"https://m.badoo.com/a","utm":{"campaign":"spring"},"tags":["import"]},
                {"domain":"go.badoo.com","code":"b-2","target":"https://m.badoo.com/b","expiresAt":"2027-01-01T00:00:00Z",
                "maxClicks":0,"disabled":true}]}
                """#,
            fingerprint: "426235942d83f0d452cf53778283967fd3b493c0ec540a3bbe9a177efe81eb39"),
        Pin(
            method: "Links.Update",
            params: #"""
                {"etag":"\"l-2\"","link":{"domain":"go.badoo.com","code":"summer","target":"https://m.badoo.com/b",
                "tags":[],"utm":{}}}
                """#,
            fingerprint: "d4b3c28b92766379979977dabee8e39e88815268b3cccefc830660771164533b"),
        Pin(
            method: "Links.Delete", params: #"{"domain":"go.badoo.com","code":"summer"}"#,
            fingerprint: "5cdccad1864b3880169d971733dcd6d5e27243a44b2f87594e380ae421794fdc"),
        Pin(
            method: "Apps.Create",
            params: #"""
                {"app":{"id":"badoo","displayName":"Badoo","ios":{"appIds":["ABCDE12345.com.badoo.Badoo"],
                "webcredentials":true,"appClips":["ABCDE12345.com.badoo.Badoo.Clip"],"appStoreId":"351331194"},
                "android":{"packageName":"com.badoo.mobile","sha256CertFingerprints":
                ["AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"]},
                "schemes":["badoo"],"defaults":{"caseSensitive":false},"hosts":["*.rt.badoo.com"]},"shareNames":false}
                """#,
            fingerprint: "e54c29db7aed9dc4f28293acf82c4070b119b04614f8e5979c87d8de23ab72d7"),
        // The app's defaults (`schemes`, `fallback`) filled in by decoding.
        Pin(
            method: "Apps.Update", params: #"{"app":{"id":"badoo"},"etag":"\"a-1\""}"#,
            fingerprint: "f100cd3e9b2a262d8b3fddc8b5f32581c8d82047efb14589f7fdaa358beb6d05"),
        Pin(
            method: "Apps.Delete", params: #"{"app":"badoo"}"#,
            fingerprint: "3a918ab20e53b7fda40750c25bbe6d68ccb91bbe829088aaf8952f8b7f38d9b7"),
        Pin(
            method: "Domains.Create",
            params: #"""
                {"domain":{"host":"go.badoo.com","apps":["badoo","bumble"],"defaults":{"percentEncoded":false},
                "substitutionVariables":{"lang":["en","de"],"id":["?*"]},"legacyPaths":true,"links":true,
                "longLinkPreviews":false}}
                """#,
            fingerprint: "9a53de230ebaebf902a3261606d8bf1f36a291c51f288765acbcb9d8023804da"),
        Pin(
            method: "Domains.Delete", params: #"{"host":"go.badoo.com","etag":"\"d-9\""}"#,
            fingerprint: "2c908cd8c25e66d8eb939cea615b368e6c57c65386129c2c7ea66f7bd3ba4e1c"),
        Pin(
            method: "Tokens.Revoke", params: #"{"id":"tok_0123456789abcdef"}"#,
            fingerprint: "6117e31651277160f2fd070423b721c5203d1ae0ffb2769e0d0a51a08826af95"),
        // `events` absent: decoding fills in every event type of this release.
        Pin(
            method: "Webhooks.Create",
            params: #"{"app":"badoo","webhook":{"url":"https://hooks.badoo.com/links"}}"#,
            fingerprint: "f8a2b58f8385321a673617895befbda6b23bde3e82e563b1b7334c6fafc16d41"),
        Pin(
            method: "Webhooks.Create",
            params: #"""
                {"app":"badoo","webhook":{"url":"https://hooks.badoo.com/clicks","events":["link.clicked"],
                "description":"BI export"}}
                """#,
            fingerprint: "09f54990d02fc994f2cbeb5dd17d1ea16cfe7b092534dd5c8a07c393035fcdab"),
        Pin(
            method: "Webhooks.Delete", params: #"{"app":"badoo","id":"wh_0123456789abcdef"}"#,
            fingerprint: "4575fb138caafc82ae7a038c134c1ce142528f540e5f7b5962320fe674f6ae72"),
        // Numbers of every shape (`JSONValue` holds them as doubles), null, booleans, nested objects.
        Pin(
            method: "Manifests.Apply",
            params: #"""
                {"manifest":{"$schema":"./routereg-manifest.schema.json","app":{"id":"badoo"},
                "domains":[{"host":"m.badoo.com","links":false}],"routes":[{"id":"help","pattern":{"path":"/help/*"},
                "platforms":{"ios":{"since":"5.0"}},"comment":"from manifest"}]},
                "basis":{"app":"badoo","fingerprint":"sha256:0000000000000000000000000000000000000000000000000000000000000000",
                "appExists":true,"domains":1,"routes":12},
                "changes":[{"action":"change","kind":"route","id":"help","fields":[
                {"field":"platforms.ios.since","from":"4.9","to":"5.0"},{"field":"n","from":3,"to":2.5},
                {"field":"x","from":0.1,"to":1e20},{"field":"y","from":null,"to":true},
                {"field":"z","to":{"b":[1,"2",false],"a":-7}}]},
                {"action":"add","kind":"route","id":"faq","fields":[],"before":"help","summary":"/faq (ios 5.0+)"}],
                "prune":true,"allowBreaking":false,"source":"git:abc123"}
                """#,
            fingerprint: "6d3a5693d45f9fcbdc00f8494fc7ebd86d625ff386958d3c6c680bae59f12d21"),
    ]

    @Test(arguments: pins)
    func theSameParamsKeepTheirFingerprint(_ pin: Pin) throws {
        let fingerprint = try Self.fingerprint(pin.method, pin.params)
        #expect(
            fingerprint == pin.fingerprint,
            "the encoding of \(pin.method)'s params changed: retries across a rolling upgrade would be refused")
    }

    /// A write method added later gets a pin too.
    @Test func everyMethodThatTakesARequestIdIsPinned() {
        let pinned = Set(Self.pins.map(\.method))
        let unpinned = API.all.filter { $0.takesRequestID && !pinned.contains($0.name) }.map { $0.name }
        #expect(unpinned == [])
    }

    private struct NotAWrite: Error { let method: String }

    private static func fingerprint(_ method: String, _ params: String) throws -> String {
        guard let descriptor = API.all.first(where: { $0.name == method }) else { throw NotAWrite(method: method) }
        return try input(of: descriptor, Data(params.utf8)).paramsFingerprint()
    }

    private static func input<Method: RPCMethodDescriptor>(
        of _: Method.Type, _ params: Data
    ) throws -> any IdempotentInput {
        guard let input = try JSONDecoder().decode(Method.Input.self, from: params) as? any IdempotentInput else {
            throw NotAWrite(method: Method.name)
        }
        return input
    }
}
