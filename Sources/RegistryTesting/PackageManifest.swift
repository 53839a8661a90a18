import Foundation
import ProcessSpawn

/// The package's manifest as SwiftPM reads it, for the tests that hold the module graph to a rule (the
/// client reaches no server module; the HTTP layer and the engine reach no application module).
public enum PackageManifest {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Each target's names of the package's own targets it depends on, from `swift package dump-package`
    /// with a scratch directory of its own (the one under test is locked by the `swift test` running it).
    public static func targetDependencies(packageRoot: URL) throws -> [String: [String]] {
        guard
            let swift = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map({ "\($0)/swift" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw Failure(description: "swift is not on PATH") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try Spawn(
            swift, ["package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package"]
        ).run(timeout: .seconds(120))
        guard result.succeeded else { throw Failure(description: "dump-package failed: \(result.standardError)") }
        guard let manifest = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            let targets = manifest["targets"] as? [[String: Any]]
        else { throw Failure(description: "dump-package printed no targets") }
        var out: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { throw Failure(description: "a target without a name") }
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            // Each dependency is {"byName": [name, condition]} or {"target": [name, condition]}.
            out[name] = dependencies.compactMap { ($0["byName"] ?? $0["target"]) as? [Any] }.compactMap {
                $0.first as? String
            }
        }
        return out
    }

    /// Every target `target` reaches in `graph`, directly or not.
    public static func reached(from target: String, in graph: [String: [String]]) -> Set<String> {
        var reached: Set<String> = []
        var queue = graph[target] ?? []
        while let next = queue.popLast() {
            if reached.insert(next).inserted { queue += graph[next] ?? [] }
        }
        return reached
    }
}
