import Foundation
import Testing

/// The committed fuzz corpora (seeds and every crash ever found) replayed through the normal build of
/// `routereg-fuzz`: a regression of any past finding traps the child and fails here.
@Suite("Fuzz corpus replay")
struct CorpusReplayTests {
    @Test(
        "every committed input of every target replays without a crash",
        arguments: ["jsonrpc", "aasa", "url", "version"])
    func replay(target: String) async throws {
        let binary = try #require(Products.executable("routereg-fuzz"), "routereg-fuzz is not built")
        let corpus = Products.packageRoot.appendingPathComponent("Fuzz/corpus/\(target)")
        let result = try await Products.run(binary, [target, corpus.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\(target): "), "\(result.output)")
        #expect(!result.output.contains(": 0 inputs"), "the \(target) corpus is empty")
    }
}
