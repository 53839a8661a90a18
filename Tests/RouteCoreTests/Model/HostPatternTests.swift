import Testing

@testable import RouteCore

/// Host patterns (`App.hosts`): what each matches, which overlap, and which are refused.
@Suite struct HostPatternTests {
    @Test(arguments: [
        ("rt.example.com", "rt.example.com", true),
        ("rt.example.com", "a.rt.example.com", false),
        ("*.rt.example.com", "a.rt.example.com", true),
        ("*.rt.example.com", "a.b.rt.example.com", true),
        ("*.rt.example.com", "rt.example.com", false),
        ("*.rt.example.com", "xrt.example.com", false),
        ("*.badoo.com", "login.badoo.com", true),
    ])
    func matching(pattern: String, host: String, matches: Bool) {
        #expect(HostPattern.matches(pattern, host: host) == matches)
    }

    @Test(arguments: [
        ("*.badoo.com", "*.login.badoo.com", true),
        ("*.badoo.com", "login.badoo.com", true),
        ("*.badoo.com", "badoo.com", false),
        ("*.badoo.com", "*.badoo.com", true),
        ("rt.example.com", "rt.example.com", true),
        ("*.rt.example.com", "*.xrt.example.com", false),
        ("*.rt.example.com", "*.example.com", true),
    ])
    func overlapping(a: String, b: String, overlap: Bool) {
        #expect(HostPattern.overlap(a, b) == overlap)
        #expect(HostPattern.overlap(b, a) == overlap)
    }

    @Test(arguments: ["*.com", "*", "*.*.example.com", "RT.example.com", "rt.example.com.", "https://rt.example.com"])
    func refused(pattern: String) {
        #expect(throws: RegistryError.self) { try HostPattern.validate(pattern, field: "app.hosts[0]") }
    }

    @Test func anAppsPatternsAreValidatedWithItAndNamedByField() throws {
        let app = App(id: "rt", hosts: ["rt.example.com", "*.com"])
        let error = try #require(throws: RegistryError.self) { try ModelValidation.app(app) }
        #expect(error.fieldViolations.first?.field == "app.hosts[1]")
        let twice = App(id: "rt", hosts: ["rt.example.com", "rt.example.com"])
        #expect(throws: RegistryError.self) { try ModelValidation.app(twice) }
        try ModelValidation.app(App(id: "rt", hosts: ["*.rt.example.com", "rt.example.com"]))
    }
}
