import Dispatch
import Foundation
import RegistryAPI
import RegistryApplication
import HTTPServing
import JSONRPC
import RegistryConsole
import RegistryService
import RouteCore
import RouteStore

extension ServeCommand {
    /// Builds the application from the options, starts it (embedded PostgreSQL, pool, monitor, flushing,
    /// watch, request log, HTTP, in that order), serves until SIGINT/SIGTERM, then stops it in the reverse
    /// order: in-flight requests finish, the request log is written, clicks and token uses are flushed, the
    /// pool and the embedded cluster close last.
    static func serve(_ options: Options) throws {
        let application = RegistryApplication(configuration: try configuration(options))
        try application.start()
        let host = HTTPServerConfiguration.listenAddress(options.listen)!.host
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Written unbuffered: scripts and tests wait for this line to learn the port.
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(application.port)\n".utf8))
        note("web console: http://\(shownHost):\(application.port)\(RegistryServer.consolePath)/")
        SystemdNotify.send("READY=1\nSTATUS=listening on \(shownHost):\(application.port)")

        waitForTermination()
        SystemdNotify.send("STOPPING=1")
        note("shutting down")
        application.stop()
    }

    /// What the flags, the environment and the data directory decide, as the application's configuration.
    static func configuration(_ options: Options) throws -> Configuration {
        let environment = ProcessInfo.processInfo.environment
        // Read first: a bad token file stops the start before any database is started.
        let metricsToken = try options.metricsTokenFile.map(Self.metricsToken(file:))
        let dataDirectory = URL(fileURLWithPath: options.dataDirectory, isDirectory: true).standardizedFileURL
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)

        let database: Configuration.DatabaseSource
        if let url = options.databaseURL ?? environment["DATABASE_URL"], !url.isEmpty {
            database = .url(url)
        } else if environment["PGHOST"] != nil || environment["PGDATABASE"] != nil {
            database = .url("")  // libpq reads the PG* variables itself
        } else {
            database = .embedded(dataDirectory: dataDirectory.path)
        }
        var embedded = false
        if case .embedded = database { embedded = true }
        let adminSecret = try adminToken(environment: environment, dataDirectory: dataDirectory, embedded: embedded)
        let address = HTTPServerConfiguration.listenAddress(options.listen)!
        return Configuration(
            database: database, poolSize: options.poolSize,
            service: RegistryService.Options(
                snapshotFile: dataDirectory.appendingPathComponent("snapshot.json"),
                bootstrapAdminSHA256: adminSecret.map { SHA256.hex(Array($0.utf8)) },
                log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) },
                defaultWriteTimeout: .milliseconds(options.requestTimeoutMs), readOnly: options.readOnly,
                maxSnapshotAge: .seconds(options.maxSnapshotAge), webhookPrivateHosts: Set(options.webhookPrivateHosts)),
            runtime: RegistryRuntime.Options(clickRetentionDays: options.clickRetentionDays),
            delivery: DeliveryWatch.Options(
                appleCDN: URL(string: options.appleCDN)!, assetLinksAPI: URL(string: options.assetLinksAPI)!,
                observe: options.deliveryWatch && !options.readOnly, interval: .seconds(options.deliveryInterval)),
            http: HTTPServerConfiguration(
                host: address.host, port: address.port, threadPoolSize: options.threads,
                connectionLimit: connectionLimit(), perIPConnectionLimit: options.perIPLimit,
                connectionMemoryLimit: options.connectionMemoryKiB * 1024, logClientAddress: options.logClientAddress),
            cacheMaxAge: options.cacheMaxAge, requestLog: try requestLog(options), console: true,
            build: BuildInfo(
                version: MiscCommands.version, commit: BuildInfo.commit(besideExecutable: CommandLine.arguments[0])),
            signInLimit: SignInLimiter.Policy(maxFailures: options.signInLimit == 0 ? .max : options.signInLimit),
            adminSurfaces: AdminSurfaces(adminHosts: options.adminHosts, metricsToken: metricsToken),
            log: { note($0) })
    }

    /// The request log the options ask for.
    private static func requestLog(_ options: Options) throws -> RequestLog {
        if options.quiet { return .silent }
        switch options.accessLog {
        case nil: return .standardError
        case "-": return .standardOutput
        case let path?: return try .file(path)
        }
    }

    /// The token of `--metrics-token-file`: the file's text without surrounding white space, at least 16
    /// characters (a scraper's secret, not a password), refused otherwise before the server starts.
    private static func metricsToken(file path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure("--metrics-token-file: cannot read \(path)")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16, !token.contains(where: { $0.isWhitespace }) else {
            throw CommandFailure("--metrics-token-file: \(path) must hold one token of at least 16 characters")
        }
        return token
    }

    /// The bootstrap admin secret: `ROUTEREG_ADMIN_TOKEN`, or in embedded mode one generated once into
    /// `<data-dir>/admin-token` (mode 600), whose path is printed.
    private static func adminToken(environment: [String: String], dataDirectory: URL, embedded: Bool) throws -> String?
    {
        if let token = environment["ROUTEREG_ADMIN_TOKEN"], !token.isEmpty { return token }
        guard embedded else { return nil }
        let file = dataDirectory.appendingPathComponent("admin-token")
        if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines),
            !existing.isEmpty
        {
            note("admin token: \(file.path)")
            return existing
        }
        let secret = RegistryService.newSecret()
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        note("admin token written to \(file.path) (export ROUTEREG_TOKEN=$(cat \(file.path)))")
        return secret
    }

    /// As many connections as the process may open, less a reserve for the database pool, the listener and
    /// files: a fixed lower limit lets a crowd of idle clients fill every slot and starve everyone else
    /// (RELIABILITY.md, "Known limits found").
    /// Raises the soft descriptor limit to the hard one first (capped at 65,536 connections).
    static func connectionLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
            let files = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let files = RLIMIT_NOFILE
        #endif
        guard getrlimit(files, &limit) == 0 else { return 4096 }
        let wanted = rlim_t(65_536 + 512)
        if limit.rlim_cur < min(limit.rlim_max, wanted) {
            limit.rlim_cur = min(limit.rlim_max, wanted)
            if setrlimit(files, &limit) != 0 { _ = getrlimit(files, &limit) }
        }
        return max(256, min(Int(limit.rlim_cur) - 512, 65_536))
    }

    /// Blocks until SIGINT or SIGTERM.
    private static func waitForTermination() {
        let done = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        sources.forEach { $0.cancel() }
    }

    static func note(_ line: String) {
        FileHandle.standardError.write(Data(("routereg: " + line + "\n").utf8))
    }
}
