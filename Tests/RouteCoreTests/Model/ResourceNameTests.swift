import Testing

@testable import RouteCore

/// `ResourceName` prints exactly the names the API has always sent and parses them back.
@Suite struct ResourceNameTests {
    /// One name of every kind with its wire spelling.
    static let examples: [(ResourceName, String)] = [
        (.app("badoo"), "apps/badoo"),
        (.routes(app: "badoo"), "apps/badoo/routes"),
        (.route(app: "badoo", id: "lookalikes"), "apps/badoo/routes/lookalikes"),
        (
            .release(app: "badoo", platform: .ios, version: Version(components: [5, 12, 0])),
            "apps/badoo/platforms/ios/releases/5.12.0"
        ),
        (
            .release(app: "badoo", platform: .android, version: Version(components: [51200, 0, 0, 7])),
            "apps/badoo/platforms/android/releases/51200.0.0.7"
        ),
        (.domain("m.badoo.com"), "domains/m.badoo.com"),
        (.revisions(host: "m.badoo.com"), "domains/m.badoo.com/revisions"),
        (.revision(host: "m.badoo.com", number: 12), "domains/m.badoo.com/revisions/12"),
        (.token("bootstrap-admin"), "tokens/bootstrap-admin"),
        (.links(host: "go.badoo.com"), "domains/go.badoo.com/links"),
        (.link("go.badoo.com", "summer"), "domains/go.badoo.com/links/summer"),
        (.webhook(app: "badoo", id: "wh_0123456789abcdef"), "apps/badoo/webhooks/wh_0123456789abcdef"),
    ]

    /// The kind of a name; exhaustive, so a new case fails to compile here until it has an example.
    static func kind(_ name: ResourceName) -> String {
        switch name {
        case .app: "app"
        case .routes: "routes"
        case .route: "route"
        case .release: "release"
        case .domain: "domain"
        case .revisions: "revisions"
        case .revision: "revision"
        case .token: "token"
        case .links: "links"
        case .link: "link"
        case .webhook: "webhook"
        }
    }

    @Test func theExamplesCoverEveryKind() {
        #expect(Set(Self.examples.map { Self.kind($0.0) }).count == 11)
    }

    @Test(arguments: examples)
    func printsTheWireSpellingAndParsesItBack(_ name: ResourceName, _ text: String) {
        #expect(name.description == text)
        #expect("\(name)" == text)
        #expect(ResourceName(text) == name)
        #expect(ResourceName(text)?.description == text)
    }

    @Test func aReleaseIsPrintedWithItsVersionCanonical() throws {
        let name = try #require(ResourceName("apps/a/platforms/ios/releases/5.12"))
        #expect(name == .release(app: "a", platform: .ios, version: Version(components: [5, 12])))
        #expect(name.description == "apps/a/platforms/ios/releases/5.12.0")
        #expect(
            ResourceName.release(app: "a", platform: .ios, version: Version(components: [7, 1, 0, 0])).description
                == "apps/a/platforms/ios/releases/7.1.0")
    }

    @Test(arguments: [
        "", "apps", "apps/", "/apps/a", "apps/a/", "apps//routes", "apps/a/routes/", "apps/a/routes/r/x",
        "apps/a/widgets", "apps/a/platforms/ios", "apps/a/platforms/ios/releases",
        "apps/a/platforms/web/releases/1", "apps/a/platforms/ios/releases/x", "apps/a/platforms/ios/releases/1.2.3.4.5",
        "apps/a/platforms/ios/builds/1", "apps/a/platforms/ios/releases/1/x", "domains", "domains/h/aliases",
        "domains/h/revisions/0", "domains/h/revisions/-1", "domains/h/revisions/+1", "domains/h/revisions/01",
        "domains/h/revisions/one", "domains/h/revisions/1/x", "tokens", "tokens/a/b", "users/x",
    ])
    func refusesWhatTheAPINeverPrints(_ text: String) {
        #expect(ResourceName(text) == nil)
    }

    @Test(arguments: [
        ("apps/a/platforms/ios/releases/5.12", "apps/a/platforms/ios/releases/5.12.0"),
        ("apps/a/platforms/android/releases/51200", "apps/a/platforms/android/releases/51200.0.0"),
        ("apps/a/platforms/ios/releases/007.1/x", "apps/a/platforms/ios/releases/7.1.0/x"),
        ("apps/a/platforms/ios/releases/not-a-version", "apps/a/platforms/ios/releases/not-a-version"),
        ("apps/a/platforms/ios", "apps/a/platforms/ios"), ("apps/a", "apps/a"), ("apps/a/routes/r", "apps/a/routes/r"),
        ("anything at all", "anything at all"),
    ])
    func aFilterHasItsReleaseVersionSpelledCanonically(_ filter: String, _ canonical: String) {
        #expect(ResourceName.canonical(filter: filter) == canonical)
    }

    @Test func errorsNameTheResourceAsTheWireDoes() {
        #expect(RegistryError.notFound(.route(app: "badoo", id: "help")).message == "apps/badoo/routes/help not found")
        #expect(RegistryError.notFound(.route(app: "badoo", id: "help")).code == .notFound)
        #expect(RegistryError.alreadyExists(.domain("badoo.com")).message == "domains/badoo.com already exists")
        #expect(RegistryError.alreadyExists(.domain("badoo.com")).code == .alreadyExists)
        let stale = RegistryError.stale(.app("badoo"))
        #expect(stale.code == .aborted)
        #expect(stale.message == "apps/badoo was changed by someone else; get it again and retry")
    }
}
