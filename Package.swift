// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target: Swift 6 language mode comes from the tools version;
/// `ExistentialAny` keeps `any` explicit so the cost of existentials stays visible.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "RouteRegistry",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "routereg", targets: ["routereg"]),
        .library(name: "RouteMatching", targets: ["RouteMatching"]),
        .library(name: "RouteCore", targets: ["RouteCore"]),
        .library(name: "RouteRegistryClient", targets: ["RouteRegistryClient"]),
    ],
    targets: [
        // C libraries from Debian, through system-library targets.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // The one way to start child processes: posix_spawn, own process group, killed if we die first.
        .target(name: "ProcessSpawn", swiftSettings: swiftSettings),
        // JSON as bytes, no dependencies: the validating scanner, UTF-8 check, member and flat-string reading,
        // string escaping; shared by the transport, the request log, the AASA parser, the client and the fuzzer.
        .target(name: "JSONBytes", swiftSettings: swiftSettings),
        // State kept per thread shard instead of one cache line every core writes: thread numbers, per-thread
        // values behind their own locks, striped counters. Used by the transport and the snapshot's readers.
        .target(name: "ThreadShards", swiftSettings: swiftSettings),
        // The gRPC status codes, their names and HTTP statuses: the one table every error is answered by, shared
        // by the JSON-RPC engine, the registry and the Swift client. No dependencies.
        .target(name: "StatusCodes", swiftSettings: swiftSettings),
        // Pure Swift, no I/O, what an app needs to decide links locally: versions, the matcher, canOpen tables,
        // decisions and fallback URLs, errors. The Swift client links this and nothing else of the server.
        .target(name: "RouteMatching", dependencies: ["StatusCodes"], swiftSettings: swiftSettings),
        // Pure Swift, no I/O: the model, generation, lint, the API descriptors (re-exports RouteMatching).
        .target(name: "RouteCore", dependencies: ["JSONBytes", "RouteMatching"], swiftSettings: swiftSettings),
        // PostgreSQL through libpq: pool, migrations, repositories, embedded cluster, LISTEN/NOTIFY.
        .target(
            name: "RouteStore",
            dependencies: ["CLibPQ", "RouteCore", "ProcessSpawn"],
            resources: [.copy("Migrations")],
            swiftSettings: swiftSettings
        ),
        // QR codes of short links: libqrencode draws the modules, this target renders them as SVG and (libpng) PNG.
        .target(name: "QRCodes", dependencies: ["CQREncode", "CPNG"], swiftSettings: swiftSettings),
        // Outgoing HTTP GETs with a deadline, a size limit and no redirects followed (libcurl's easy interface):
        // the delivery watch and `domain verify`. Knows no application.
        .target(name: "HTTPFetching", dependencies: ["CCurl"], swiftSettings: swiftSettings),
        // Use cases and the in-memory snapshot.
        .target(
            name: "RegistryService", dependencies: ["RouteCore", "RouteStore", "HTTPFetching", "ThreadShards"],
            swiftSettings: swiftSettings),
        // The HTTP layer: the libmicrohttpd transport, a router built once at start, middleware (request guard,
        // request log, metrics, deadlines, bearer credentials), static documents. Knows no application.
        .target(
            name: "HTTPServing", dependencies: ["CMicroHTTPD", "JSONBytes", "ThreadShards"],
            swiftSettings: swiftSettings),
        // The JSON-RPC 2.0 engine: envelope, batches, dispatch over a method table, the params contract compiled
        // from an OpenRPC document, errors through its own protocol. Knows no application.
        .target(name: "JSONRPC", dependencies: ["JSONBytes", "StatusCodes"], swiftSettings: swiftSettings),
        // The registry's API: its routes on the router (the one file of path literals), its methods on the
        // engine, the well-known files, canOpen tables, the console, health and metrics.
        .target(
            name: "RegistryAPI",
            dependencies: [
                "HTTPServing", "JSONRPC", "JSONBytes", "RouteCore", "RegistryService", "RegistryConsole",
                "ThreadShards", "QRCodes",
            ],
            // The OpenRPC document, the single source of truth of the API; Schema/registry.openrpc.json links to it.
            resources: [.copy("Resources/registry.openrpc.json")],
            swiftSettings: swiftSettings
        ),
        // The composition root: the configuration serve decides, every part built once, background jobs as
        // services with one start order and one graceful stop (serve, the test server and backup check use it).
        .target(
            name: "RegistryApplication",
            dependencies: ["RouteStore", "RegistryService", "RegistryAPI", "HTTPServing", "JSONRPC"],
            swiftSettings: swiftSettings
        ),
        // Test helpers: a throwaway PostgreSQL per run, a database per suite, an in-process server.
        .target(
            name: "RegistryTesting",
            dependencies: [
                "RouteStore", "RegistryService", "RegistryAPI", "RegistryApplication", "JSONRPC", "ProcessSpawn",
            ],
            swiftSettings: swiftSettings
        ),
        // The web console's static files (Files/), compiled into the binary and served at /console/ from memory.
        .target(
            name: "RegistryConsole",
            dependencies: ["RouteCore", "HTTPServing"],
            resources: [.embedInCode("Files")],
            swiftSettings: swiftSettings
        ),
        // The thin executable: serve, migrate and the release engineer's CLI.
        .executableTarget(
            name: "routereg",
            dependencies: [
                "JSONBytes", "RouteCore", "RouteStore", "RegistryService", "HTTPServing", "JSONRPC", "RegistryAPI",
                "RegistryApplication", "RegistryConsole", "RouteRegistryClient", "HTTPFetching", "QRCodes",
            ],
            swiftSettings: swiftSettings
        ),
        // The app-side client: canOpen tables, local decisions, fallback URLs.
        .target(
            name: "RouteRegistryClient",
            dependencies: ["JSONBytes", "RouteMatching"],
            path: "Clients/swift/Sources/RouteRegistryClient",
            swiftSettings: swiftSettings
        ),

        // The matcher benchmark (a benchmark, not a timed test): ns/decision at 100, 1,000 and 10,000 rules.
        .executableTarget(
            name: "routereg-bench",
            dependencies: ["RouteCore"],
            path: "Sources/RouteCoreBenchmarks",
            swiftSettings: swiftSettings
        ),

        // libFuzzer targets (JSON-RPC decoder, AASA parsing + matching, URLs, versions). A normal build replays
        // corpus files through them; `make fuzz` builds it with -sanitize=fuzzer -DFUZZING in .build-fuzz.
        .executableTarget(
            name: "routereg-fuzz",
            dependencies: ["JSONBytes", "RouteCore", "HTTPServing", "JSONRPC", "RegistryAPI"],
            path: "Fuzz/Sources",
            swiftSettings: swiftSettings
        ),

        // A stand-in for a test process that crashes mid-run (ReliabilityTests' OrphanTests kill it).
        .executableTarget(
            name: "routereg-orphan-probe",
            dependencies: ["ProcessSpawn", "RegistryTesting"],
            path: "Tests/OrphanProbe",
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "ProcessSpawnTests", dependencies: ["ProcessSpawn"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RegistryApplicationTests",
            dependencies: ["RegistryApplication", "RegistryTesting", "RegistryService", "HTTPServing", "RouteStore"],
            swiftSettings: swiftSettings),
        .testTarget(name: "JSONBytesTests", dependencies: ["JSONBytes"], swiftSettings: swiftSettings),
        .testTarget(name: "QRCodesTests", dependencies: ["QRCodes", "RegistryTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "ThreadShardsTests", dependencies: ["ThreadShards"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPFetchingTests", dependencies: ["HTTPFetching", "HTTPServing"], swiftSettings: swiftSettings),
        // The matching engine alone: patterns, rule sets, versions, the decision's URL parsing.
        .testTarget(name: "RouteMatchingTests", dependencies: ["RouteMatching"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RouteCoreTests",
            dependencies: ["RouteCore", "RouteMatching"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RegistryServiceTests",
            dependencies: ["RegistryService", "RegistryTesting", "HTTPServing", "JSONRPC", "RegistryAPI"],
            swiftSettings: swiftSettings
        ),
        // Runs the built `routereg` binary and compares stdout, stderr and exit codes.
        .testTarget(
            name: "RouteregTests",
            dependencies: ["JSONBytes", "ProcessSpawn", "routereg", "RegistryTesting"],
            // Golden transcripts are read through #filePath, not bundled.
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RouteRegistryClientTests",
            dependencies: ["RouteRegistryClient", "RouteCore", "RegistryTesting", "ProcessSpawn"],
            path: "Clients/swift/Tests/RouteRegistryClientTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RouteStoreTests",
            dependencies: ["ProcessSpawn", "RouteStore", "RegistryTesting"],
            swiftSettings: swiftSettings
        ),
        // The transport, router and middleware alone: no engine, no registry.
        .testTarget(name: "HTTPServingTests", dependencies: ["HTTPServing"], swiftSettings: swiftSettings),
        // The engine alone: no transport, no registry.
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "StatusCodes"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RegistryAPITests",
            dependencies: [
                "HTTPServing", "JSONRPC", "RegistryAPI", "RegistryConsole", "RegistryTesting", "StatusCodes",
            ],
            swiftSettings: swiftSettings
        ),
        // Faults, abuse, malicious values and security: real binary, real PostgreSQL, corpus replay.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "ProcessSpawn", "RegistryTesting", "RouteCore", "RegistryService", "HTTPServing", "JSONRPC",
                "RegistryAPI", "RouteStore",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
