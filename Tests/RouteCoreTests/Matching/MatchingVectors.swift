import Foundation
import Testing

/// One matching vector: an AASA document, an app, a URL and what iOS decides. The shape is the one of
/// `Tests/Conformance/aasa-matching.json`, the repository's byte-identical copy of the shared conformance file.
struct MatchingVector: Sendable, CustomTestStringConvertible {
    let name: String
    let aasa: Data
    let domain: String
    let appID: String
    let url: String
    let expect: String

    var testDescription: String { name }

    /// The package root, found from this file's path (`<root>/Tests/RouteCoreTests/Matching/…`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The conformance vectors, recorded against Apple's swcutil; the repository keeps its own copy so that it
    /// stands alone.
    static let conformanceFile = packageRoot.appendingPathComponent("Tests/Conformance/aasa-matching.json")
    /// Where the copy comes from, when the shared folder sits beside the repository (checked byte for byte).
    static let upstreamFile = packageRoot.appendingPathComponent("../shared/conformance/aasa-matching.json")
    /// The project's own vectors, which grow with every subtle behaviour pinned down.
    static let projectFile = packageRoot.appendingPathComponent("Tests/RouteCoreTests/Fixtures/route-vectors.json")

    /// Loads vectors; a missing or malformed file yields a single vector that fails with the reason.
    static func load(_ file: URL) -> [MatchingVector] {
        do {
            let data = try Data(contentsOf: file)
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let cases = root["cases"] as? [[String: Any]]
            else { return [broken("\(file.lastPathComponent): no cases array")] }
            return try cases.map { entry in
                guard let name = entry["name"] as? String, let aasa = entry["aasa"],
                    let domain = entry["domain"] as? String, let appID = entry["appId"] as? String,
                    let url = entry["url"] as? String, let expect = entry["expect"] as? String
                else { return broken("\(file.lastPathComponent): malformed case \(entry["name"] ?? "?")") }
                return MatchingVector(
                    name: name, aasa: try JSONSerialization.data(withJSONObject: aasa), domain: domain,
                    appID: appID, url: url, expect: expect)
            }
        } catch {
            return [broken("\(file.lastPathComponent): \(error)")]
        }
    }

    private static func broken(_ reason: String) -> MatchingVector {
        MatchingVector(name: "unreadable: \(reason)", aasa: Data(), domain: "", appID: "", url: "", expect: "")
    }
}
