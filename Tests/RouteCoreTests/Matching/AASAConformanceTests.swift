import Foundation
import Testing

@testable import RouteCore

/// Every vector of the shared conformance file and of the project's own file must decide as recorded.
@Suite struct AASAConformanceTests {
    @Test(arguments: MatchingVector.load(MatchingVector.sharedFile))
    func sharedVector(_ vector: MatchingVector) throws {
        try check(vector)
    }

    @Test(arguments: MatchingVector.load(MatchingVector.projectFile))
    func projectVector(_ vector: MatchingVector) throws {
        try check(vector)
    }

    @Test func sharedFileHasCases() {
        #expect(MatchingVector.load(MatchingVector.sharedFile).count >= 60)
    }

    private func check(_ vector: MatchingVector) throws {
        let document = try AASADocument(json: vector.aasa)
        let url = try #require(LinkURL(vector.url))
        let result = document.evaluate(appID: vector.appID, url: url, domain: vector.domain)
        #expect(result.outcome.rawValue == vector.expect, "\(vector.name): \(result.reason)")
    }
}
