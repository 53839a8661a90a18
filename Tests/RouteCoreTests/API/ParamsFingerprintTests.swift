import Foundation
import RouteCore
import Testing

/// The fingerprint a `requestId` is recorded with (`WriteRequest.paramsFingerprint()`): the same params are the
/// same call however they are spelt, other params are another call, and the key itself is not a param.
@Suite struct ParamsFingerprintTests {
    private static func fingerprint(_ json: String) throws -> String {
        try JSONDecoder().decode(API.RoutesCreate.Input.self, from: Data(json.utf8)).paramsFingerprint()
    }

    static let compact =
        #"{"app":"badoo","requestId":"k-1","route":{"id":"help","pattern":{"path":"/help/*"},"platforms":{"ios":{"since":"5.0"}}}}"#

    @Test func keyOrderWhitespaceAndEscapesDoNotCount() throws {
        let spelt = """
            {
              "route": { "platforms": { "ios": { "since": "5.0" } },
                         "pattern": { "path": "\\/help\\/*" }, "id": "h\\u0065lp" },
              "requestId" : "k-1",
              "app" : "badoo"
            }
            """
        #expect(try Self.fingerprint(spelt) == Self.fingerprint(Self.compact))
    }

    @Test func theKeyIsNotAParam() throws {
        let otherKey = Self.compact.replacingOccurrences(of: "k-1", with: "k-2")
        let noKey = Self.compact.replacingOccurrences(of: #""requestId":"k-1","#, with: "")
        #expect(otherKey != Self.compact && noKey != Self.compact)
        #expect(try Self.fingerprint(otherKey) == Self.fingerprint(Self.compact))
        #expect(try Self.fingerprint(noKey) == Self.fingerprint(Self.compact))
    }

    @Test(arguments: [
        #"{"app":"badoo","requestId":"k-1","route":{"id":"faq","pattern":{"path":"/help/*"},"platforms":{"ios":{"since":"5.0"}}}}"#,
        #"{"app":"badoo","requestId":"k-1","route":{"id":"help","pattern":{"path":"/help/*"},"platforms":{"ios":{"since":"5.1"}}}}"#,
        #"{"app":"other","requestId":"k-1","route":{"id":"help","pattern":{"path":"/help/*"},"platforms":{"ios":{"since":"5.0"}}}}"#,
        #"{"app":"badoo","requestId":"k-1","before":"profile","route":{"id":"help","pattern":{"path":"/help/*"},"platforms":{"ios":{"since":"5.0"}}}}"#,
    ])
    func otherParamsAreAnotherCall(_ other: String) throws {
        #expect(try Self.fingerprint(other) != Self.fingerprint(Self.compact))
    }

    @Test func itIsTheLowerHexSHA256TheStoreAccepts() throws {
        let value = try Self.fingerprint(Self.compact)
        // `write_requests.params_sha256` holds exactly this form (migration 0016's check).
        #expect(value.count == 64)
        #expect(
            value.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
    }
}
