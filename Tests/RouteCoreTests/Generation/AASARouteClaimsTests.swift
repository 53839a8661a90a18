import Foundation
import Testing

@testable import RouteCore

/// Reading back which routes a generated AASA claims: what `Associations.Delivery`'s `claimedRoutes` is made
/// of, so it must agree with what the generator writes.
@Suite struct AASARouteClaimsTests {
    static let badoo = BadooFixture.appID

    @Test(arguments: [
        (BadooFixture.State.published511, ["profile"]),
        (.lookalikesAdded, ["profile"]),
        (.published512, ["profile", "lookalikes"]),
        // Switched off for the only version that would open it: no opening rule claims it.
        (.switchedOff, ["profile"]),
    ])
    func theGeneratorsRulesAreReadBack(_ state: BadooFixture.State, _ expected: [String]) throws {
        let files = try Generator.generate(registry: BadooFixture.registry(state))
        for host in ["m.badoo.com", "badoo.com"] {
            let bytes = try #require(files.hosts[host]).aasa.bytes
            let claims = AASARouteClaims(document: bytes)
            // help is an exclusion and the fallback marker names no route: neither is claimed.
            #expect(claims.routes(for: [Self.badoo]) == expected, "\(host)")
            #expect(claims.appIDs == [Self.badoo])
            #expect(claims.routes(for: ["ZZZZZ99999.com.other"]).isEmpty)
        }
    }

    @Test func eachAppGetsItsOwnEntriesRoutes() {
        let document = #"""
            {"applinks":{"details":[
              {"appIDs":["T.one","T.two"],"components":[
                {"?":{"ul_fallback":"?*"},"exclude":true,"comment":"fallback marker"},
                {"/":"/a/*","comment":"route a"},
                {"/":"/x/*","exclude":true,"comment":"route x"},
                {"/":"/b/*","comment":"route b"},
                {"/":"/a2/*","comment":"route a"},
                {"/":"/n/*"}]},
              {"appIDs":["T.three"],"components":[{"/":"/c/*","comment":"route c"}]},
              {"appID":"T.one","paths":["/a/*"]}]}}
            """#
        let claims = AASARouteClaims(document: Data(document.utf8))
        #expect(claims.routes(for: ["T.one"]) == ["a", "b"])
        #expect(claims.routes(for: ["T.two", "T.three"]) == ["a", "b", "c"])
        #expect(claims.routes(for: ["T.three"]) == ["c"])
        #expect(claims.routes(for: []) == [])
        #expect(claims.appIDs == ["T.one", "T.two", "T.three"])
    }

    @Test(arguments: ["", "not json", "[]", #"{"applinks":{}}"#, #"{"webcredentials":{"apps":["T.one"]}}"#])
    func whatIsNoAASAClaimsNothing(_ text: String) {
        let claims = AASARouteClaims(document: Data(text.utf8))
        #expect(claims.details.isEmpty)
        #expect(claims.routes(for: ["T.one"]).isEmpty)
    }
}
