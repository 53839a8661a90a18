import Foundation
import Testing

/// Golden files under `Tests/RouteregTests/Golden/`: expected human output, compared byte for byte.
/// `ROUTEREG_UPDATE_GOLDEN=1` rewrites them from the actual output (review the diff before committing).
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Expects `actual` to equal the golden file `name`.
    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ROUTEREG_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "golden file \(name) is missing; run with ROUTEREG_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}
