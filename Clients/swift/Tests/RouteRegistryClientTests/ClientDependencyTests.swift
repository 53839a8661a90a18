import Foundation
import ProcessSpawn
import Testing

/// An app that links RouteRegistryClient must not link RouteCore (its generators, lint and API descriptors):
/// the client depends on RouteMatching and JSONBytes (JSON as bytes, no dependencies) alone, in the manifest
/// and in its sources.
@Suite("RouteRegistryClient's dependencies")
struct ClientDependencyTests {
    /// The repository root (this file is Clients/swift/Tests/RouteRegistryClientTests/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The manifest as SwiftPM reads it (`swift package dump-package`), with a scratch directory of its own:
    /// the one under test is locked by the `swift test` running this.
    static func manifest() throws -> [String: Any] {
        let swift = try #require(
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "swift is not on PATH")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try Spawn(
            swift, ["package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        ).run(timeout: .seconds(120))
        #expect(result.succeeded, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(json as? [String: Any])
    }

    /// Each target's names of the package's own targets it depends on.
    static func targetDependencies(_ manifest: [String: Any]) throws -> [String: [String]] {
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var out: [String: [String]] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            // Each dependency is {"byName": [name, condition]} or {"target": [name, condition]}.
            out[name] = dependencies.compactMap { ($0["byName"] ?? $0["target"]) as? [Any] }.compactMap {
                $0.first as? String
            }
        }
        return out
    }

    @Test func theManifestGivesTheClientRouteMatchingAndNotRouteCore() throws {
        let graph = try Self.targetDependencies(Self.manifest())
        #expect(graph["RouteRegistryClient"] == ["JSONBytes", "RouteMatching"])
        #expect(graph["RouteMatching"] == [])
        #expect(graph["JSONBytes"] == [])
        var reached: Set<String> = []
        var queue = graph["RouteRegistryClient"] ?? []
        while let next = queue.popLast() {
            if reached.insert(next).inserted { queue += graph[next] ?? [] }
        }
        #expect(reached == ["JSONBytes", "RouteMatching"])
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
