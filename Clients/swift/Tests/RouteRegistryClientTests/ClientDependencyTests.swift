import Foundation
import RegistryTesting
import Testing

/// An app that links RouteRegistryClient must not link RouteCore (its generators, lint and API descriptors):
/// the client depends on RouteMatching (with the status table it re-exports, StatusCodes) and JSONBytes (JSON
/// as bytes, no dependencies) alone, in the manifest and in its sources.
@Suite("RouteRegistryClient's dependencies")
struct ClientDependencyTests {
    /// The repository root (this file is Clients/swift/Tests/RouteRegistryClientTests/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theManifestGivesTheClientRouteMatchingAndNotRouteCore() throws {
        let graph = try PackageManifest.targetDependencies(packageRoot: Self.root)
        #expect(graph["RouteRegistryClient"] == ["JSONBytes", "RouteMatching"])
        #expect(graph["RouteMatching"] == ["StatusCodes"])
        #expect(graph["StatusCodes"] == [])
        #expect(graph["JSONBytes"] == [])
        #expect(
            PackageManifest.reached(from: "RouteRegistryClient", in: graph) == [
                "JSONBytes", "RouteMatching", "StatusCodes",
            ])
        #expect(graph["RouteCore"]?.contains("RouteMatching") == true)
    }

    @Test func theClientsSourcesImportNoModuleOfThePackageButRouteMatchingAndJSONBytes() throws {
        let sources = Self.root.appendingPathComponent("Clients/swift/Sources/RouteRegistryClient")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        var imported: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.count >= 2, words[0] == "import" else { continue }
                imported.insert(String(words[words.count - 1]))
            }
        }
        let package = Set(
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path))
        #expect(imported.contains("RouteMatching"))
        #expect(!imported.contains("RouteCore"))
        #expect(imported.intersection(package) == ["JSONBytes", "RouteMatching"])
    }
}
