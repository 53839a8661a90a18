import Foundation
import ProcessSpawn
import Testing

/// The HTTP layer and the JSON-RPC engine know no application: neither depends on RegistryService,
/// RouteCore or RouteMatching, in the manifest (transitively) or in an import of their sources; and the
/// paths the server answers are named in one file, `RegistryRoutes.swift`.
@Suite("Layering")
struct LayeringTests {
    /// The repository root (this file is Tests/RPCServerTests/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let forbidden: Set<String> = ["RegistryService", "RouteCore", "RouteMatching", "RouteStore", "RegistryAPI"]

    /// Each target's names of the package's own targets it depends on, from `swift package dump-package`
    /// (with a scratch directory of its own: the one under test is locked by the `swift test` running this).
    static func targetDependencies() throws -> [String: [String]] {
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
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var out: [String: [String]] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            out[name] = dependencies.compactMap { ($0["byName"] ?? $0["target"]) as? [Any] }.compactMap {
                $0.first as? String
            }
        }
        return out
    }

    static func reached(from target: String, in graph: [String: [String]]) -> Set<String> {
        var reached: Set<String> = []
        var queue = graph[target] ?? []
        while let next = queue.popLast() {
            if reached.insert(next).inserted { queue += graph[next] ?? [] }
        }
        return reached
    }

    /// The Swift files under `Sources/<target>`.
    static func sources(of target: String) throws -> [URL] {
        let directory = root.appendingPathComponent("Sources/\(target)")
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func theManifestKeepsTheHTTPLayerAndTheEngineApart() throws {
        let graph = try Self.targetDependencies()
        #expect(graph["HTTPServing"] == ["CMicroHTTPD", "JSONBytes"])
        #expect(graph["JSONRPC"] == ["JSONBytes"])
        for target in ["HTTPServing", "JSONRPC"] {
            let reached = Self.reached(from: target, in: graph)
            #expect(
                reached.isDisjoint(with: Self.forbidden), "\(target) reaches \(reached.intersection(Self.forbidden))")
        }
        #expect(!Self.reached(from: "JSONRPC", in: graph).contains("HTTPServing"))
        #expect(!Self.reached(from: "HTTPServing", in: graph).contains("JSONRPC"))
    }

    @Test(arguments: ["HTTPServing", "JSONRPC"])
    func noSourceImportsTheApplication(target: String) throws {
        let files = try Self.sources(of: target)
        #expect(files.count > 5)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("import ") {
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                let module = words[index + 1].split(separator: ".").first.map(String.init) ?? ""
                #expect(!Self.forbidden.contains(module), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    /// Every string literal naming a path the server answers is in `RegistryRoutes.swift`.
    @Test func theServersPathsAreNamedInOneFile() throws {
        let paths = [
            "/rpc", "/healthz", "/livez", "/readyz", "/metrics", "/version", "/.well-known", "/apple-app-site",
            "/canopen", "/console",
        ]
        var found: [String: [String]] = [:]
        for target in ["HTTPServing", "JSONRPC", "RegistryAPI", "RegistryConsole", "RegistryService"] {
            for file in try Self.sources(of: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                // String literals only: doc comments may name a path.
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                {
                    for path in paths where line.contains("\"\(path)") {
                        found[file.lastPathComponent, default: []].append(path)
                    }
                }
            }
        }
        #expect(Set(found.keys) == ["RegistryRoutes.swift"], "\(found)")
        #expect(Set(found["RegistryRoutes.swift"] ?? []) == Set(paths))
    }
}
