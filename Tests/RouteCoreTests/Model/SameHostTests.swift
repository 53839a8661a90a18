import Testing

@testable import RouteCore
@testable import RouteMatching

@Suite struct SameHostTests {
    @Test(arguments: [
        ("m.badoo.com", "m.badoo.com", true), ("M.Badoo.COM", "m.badoo.com", true),
        ("m.badoo.com", "m.badoo.co", false),
        ("m.badoo.co", "m.badoo.com", false), ("m-badoo.com", "m\rbadoo.com", false), ("@.com", "`.com", false),
        ("[.com", "{.com", false), ("", "", true), ("a1.com", "A1.COM", true), ("a1.com", "a!.com", false),
    ])
    func comparesASCIICaseInsensitively(_ a: String, _ b: String, _ same: Bool) {
        #expect(Domain.sameHost(a, b) == same)
        #expect(Domain.sameHost(b, a) == same)
        #expect(Domain.sameHost(a, b) == (a.lowercased() == b.lowercased()))
    }
}
