import RouteCore
import Testing

@testable import HTTPServing
@testable import RegistryAPI

/// Which hosts reach the admin surfaces (`RegistryHostClasses`) and who may read `/metrics`
/// (`MetricsAccess`), without a server.
@Suite struct AdminSurfacesTests {
    static let domains = [
        Domain(host: "m.badoo.com", apps: ["badoo"]), Domain(host: "go.badoo.com", apps: ["badoo"], links: true),
        Domain(host: "api.badoo.com", apps: ["badoo"]), Domain(host: "go.rt.example.com", apps: ["rt"], links: true),
    ]

    @Test("registry domains are links or documents; an admin host among them is admin (with links if it has them)")
    func classes() {
        let plain = RegistryHostClasses.classes(of: Self.domains, adminHosts: [])
        #expect(plain["m.badoo.com"] == RegistryHostClasses.documents)
        #expect(plain["go.badoo.com"] == RegistryHostClasses.links)
        #expect(plain["api.example.com"] == nil, "a host not listed is an admin host")
        let opened = RegistryHostClasses.classes(
            of: Self.domains,
            adminHosts: AdminSurfaces(adminHosts: ["API.badoo.com.", "go.rt.example.com:443"]).adminHosts)
        #expect(opened["api.badoo.com"] == nil)
        #expect(opened["go.rt.example.com"] == RegistryHostClasses.adminLinks)
        #expect(opened["go.badoo.com"] == RegistryHostClasses.links)
        #expect(RegistryHostClasses.adminRoutes.contains(RegistryHostClasses.adminLinks))
        #expect(RegistryHostClasses.linkRoutes.contains(RegistryHostClasses.adminLinks))
        #expect(!RegistryHostClasses.adminRoutes.contains(RegistryHostClasses.documents))
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::ffff:127.0.0.1", true),
        ("10.0.0.1", false), ("::ffff:10.0.0.1", false), ("1270.0.0.1", false), ("", false), ("2001:db8::1", false),
    ])
    func loopback(address: String, isLoopback: Bool) {
        #expect(MetricsAccess.isLoopback(address) == isLoopback)
    }

    @Test func tokensCompareWhole() {
        #expect(MetricsAccess.equal(Array("secret".utf8), Array("secret".utf8)))
        #expect(!MetricsAccess.equal(Array("secret".utf8), Array("secreT".utf8)))
        #expect(!MetricsAccess.equal(Array("secret".utf8), Array("secret2".utf8)))
    }

    @Test("an echo is quoted, cut, and holds no markup")
    func plainEcho() {
        #expect(PlainEcho.quoted("badoo") == #""badoo""#)
        #expect(PlainEcho.quoted("<img src=x>") == #""\u{3C}img src=x\u{3E}""#)
        #expect(
            PlainEcho.quoted(String(repeating: "a", count: 50), limit: 40) == "\"" + String(repeating: "a", count: 40)
                + "…\"")
        #expect(PlainEcho.quoted("é\n") == #""\u{E9}\u{A}""#)
    }
}
