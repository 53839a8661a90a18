import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// Versions on the wire: strings, or Android `versionCode` numbers; ranges write their open end.
@Suite struct VersionCodingTests {
    @Test func decodesStringsAndVersionCodes() throws {
        let versions = try JSONDecoder().decode([Version].self, from: Data(#"["5.12", 51200, "5.12.0.4411"]"#.utf8))
        #expect(versions.map(\.description) == ["5.12", "51200", "5.12.0.4411"])
        #expect(versions[0] == (try Version("5.12.0")))
    }

    @Test func refusesBadVersionsWithTheReason() {
        for json in [#"["5.x"]"#, #"[-1]"#, #"["1.2.3.4.5"]"#, #"[1.5]"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode([Version].self, from: Data(json.utf8)) }
        }
    }

    @Test func rangeWritesUntilNull() throws {
        let range = VersionRange(since: try Version("5.12.0"))
        #expect(String(decoding: try CanonicalJSON.encode(range), as: UTF8.self) == #"{"since":"5.12.0","until":null}"#)
        #expect(try JSONDecoder().decode(VersionRange.self, from: try CanonicalJSON.encode(range)) == range)
    }

    @Test func sortsNumerically() throws {
        let sorted = try ["5.12", "5.9", "5.12.0.1", "10", "5"].map { try Version($0) }.sorted().map(\.description)
        #expect(sorted == ["5", "5.9", "5.12", "5.12.0.1", "10"])
    }
}
