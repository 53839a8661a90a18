import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// Every vector of the conformance file and of the project's own file must decide as recorded.
@Suite struct AASAConformanceTests {
    @Test(arguments: MatchingVector.load(MatchingVector.conformanceFile))
    func sharedVector(_ vector: MatchingVector) throws {
        try check(vector)
    }

    @Test(arguments: MatchingVector.load(MatchingVector.projectFile))
    func projectVector(_ vector: MatchingVector) throws {
        try check(vector)
    }

    @Test func sharedFileHasCases() {
        #expect(MatchingVector.load(MatchingVector.conformanceFile).count >= 60)
    }

    /// The repository's copy must not drift from the shared file it was taken from.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: MatchingVector.upstreamFile.path),
            "skipped: ../shared/conformance/aasa-matching.json is absent (a clone on its own)"))
    func copyIsByteIdenticalToTheSharedFile() throws {
        let copy = try Data(contentsOf: MatchingVector.conformanceFile)
        let upstream = try Data(contentsOf: MatchingVector.upstreamFile)
        #expect(copy == upstream, "Tests/Conformance/aasa-matching.json differs from ../shared: copy it again")
    }

    private func check(_ vector: MatchingVector) throws {
        let document = try AASADocument(json: vector.aasa)
        let url = try #require(LinkURL(vector.url))
        let result = document.evaluate(appID: vector.appID, url: url, domain: vector.domain)
        #expect(result.outcome.rawValue == vector.expect, "\(vector.name): \(result.reason)")
    }
}
