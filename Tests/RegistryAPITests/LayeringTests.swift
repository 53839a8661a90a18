import Foundation
import RegistryTesting
import Testing

/// The HTTP layer and the JSON-RPC engine know no application: neither depends on RegistryService,
/// RouteCore or RouteMatching, in the manifest (transitively) or in an import of their sources; and the
/// paths the server answers are named in one file, `RegistryRoutes.swift`.
@Suite("Layering")
struct LayeringTests {
    /// The repository root (this file is Tests/RegistryAPITests/…).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let forbidden: Set<String> = ["RegistryService", "RouteCore", "RouteMatching", "RouteStore", "RegistryAPI"]

    /// The Swift files under `Sources/<target>`.
    static func sources(of target: String) throws -> [URL] {
        let directory = root.appendingPathComponent("Sources/\(target)")
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test func theManifestKeepsTheHTTPLayerAndTheEngineApart() throws {
        let graph = try PackageManifest.targetDependencies(packageRoot: Self.root)
        #expect(graph["HTTPServing"] == ["CMicroHTTPD", "JSONBytes", "ThreadShards"])
        // Per-thread state is a building block with no dependency at all.
        #expect(graph["ThreadShards", default: []].isEmpty)
        #expect(graph["JSONRPC"] == ["JSONBytes", "StatusCodes"])
        // The status table is a leaf: both the engine and the registry's errors answer by it.
        #expect(graph["StatusCodes", default: []].isEmpty)
        // The outgoing side (the delivery watch's and domain verify's GETs) knows no application either.
        #expect(graph["HTTPFetching"] == ["CCurl"])
        for target in ["HTTPServing", "JSONRPC"] {
            let reached = PackageManifest.reached(from: target, in: graph)
            #expect(
                reached.isDisjoint(with: Self.forbidden), "\(target) reaches \(reached.intersection(Self.forbidden))")
        }
        #expect(!PackageManifest.reached(from: "JSONRPC", in: graph).contains("HTTPServing"))
        #expect(!PackageManifest.reached(from: "HTTPServing", in: graph).contains("JSONRPC"))
    }

    /// Test targets mirror modules: the transport's and the engine's tests build without the registry, so
    /// they cannot lean on it.
    @Test func theLayersAreTestedAlone() throws {
        let graph = try PackageManifest.targetDependencies(packageRoot: Self.root)
        for (tests, allowed) in [
            ("HTTPServingTests", ["HTTPServing"]), ("JSONRPCTests", ["JSONRPC", "StatusCodes"]),
            ("ThreadShardsTests", ["ThreadShards"]), ("RouteMatchingTests", ["RouteMatching"]),
        ] {
            #expect(graph[tests] == allowed, "\(tests) depends on \(graph[tests] ?? [])")
        }
        #expect(graph["RPCServerTests"] == nil)
    }

    /// What only tests use lives in RegistryTesting or the test targets: these names do not come back to the
    /// shipping targets.
    @Test func noTestOnlyCodeShips() throws {
        let testOnly = [
            "protocolRouter", "inputFields", "RPCDiscover", "HTTPServer(configuration: configuration, dispatcher",
            "trackedAddresses", "maxMissKeysHeld", "isObserver", "isRestricted", "serviceNames",
        ]
        let shipping = [
            "HTTPServing", "JSONRPC", "RegistryAPI", "RegistryApplication", "RegistryService", "RouteCore",
            "RouteStore",
        ]
        for target in shipping {
            for file in try Self.sources(of: target) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for name in testOnly { #expect(!text.contains(name), "\(file.lastPathComponent) has \(name)") }
            }
        }
    }

    /// The composition root sits on top: it builds the service, the API and the HTTP server, and only the
    /// programs that run a server (the executable, the test server and its own tests) build on it.
    @Test func theCompositionRootIsOnTop() throws {
        let graph = try PackageManifest.targetDependencies(packageRoot: Self.root)
        let uses = Set(graph["RegistryApplication", default: []])
        #expect(uses.isSuperset(of: ["RegistryService", "RegistryAPI", "HTTPServing", "RouteStore"]), "\(uses)")
        let dependents = Set(graph.filter { $0.value.contains("RegistryApplication") }.keys)
        #expect(dependents == ["routereg", "RegistryTesting", "RegistryApplicationTests"], "\(dependents)")
        for layer in ["RegistryService", "RegistryAPI", "HTTPServing", "JSONRPC", "RouteStore"] {
            #expect(!PackageManifest.reached(from: layer, in: graph).contains("RegistryApplication"), "\(layer)")
        }
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
