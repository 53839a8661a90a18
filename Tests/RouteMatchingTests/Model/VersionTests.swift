import Testing

@testable import RouteMatching

@Suite struct VersionTests {
    @Test(arguments: ["5", "5.12", "5.12.0", "5.12.0.4411", "51200", "0"])
    func parsesValidVersions(_ text: String) throws {
        let version = try Version(text)
        #expect(version.description == text)
    }

    @Test(arguments: ["", ".", "5.", ".5", "5..1", "5.1.2.3.4", "v5", "5.1-beta", " 5", "5.x", "99999999999"])
    func refusesInvalidVersions(_ text: String) {
        #expect(throws: VersionError.self) { try Version(text) }
    }

    @Test func comparesNumericallyWithMissingComponentsAsZero() throws {
        #expect(try Version("5.12") == Version("5.12.0"))
        #expect(try Version("5.12").hashValue == Version("5.12.0.0").hashValue)
        #expect(try Version("5.9") < Version("5.12"))
        #expect(try Version("5.12.0") < Version("5.12.0.1"))
        #expect(try !(Version("6") < Version("5.99")))
    }

    @Test func rangeIsHalfOpen() throws {
        let range = VersionRange(since: try Version("5.12"), until: try Version("6.0"))
        #expect(range.contains(try Version("5.12.0")))
        #expect(range.contains(try Version("5.99.9")))
        #expect(!range.contains(try Version("6")))
        #expect(!range.contains(try Version("5.11.9")))
        #expect(VersionRange(since: try Version("5"), until: nil).contains(try Version("100")))
    }
}
