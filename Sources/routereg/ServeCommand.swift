import Dispatch
import Foundation
import RegistryAPI
import HTTPServing
import RegistryService
import RouteCore
import RouteStore

/// `routereg serve`: the registry server, on an embedded PostgreSQL unless a database is configured.
enum ServeCommand {
    static let spec: CommandSpec = CommandSpec(
        ["serve"], summary: "run the registry server (embedded PostgreSQL unless --database-url)",
        details: """
            Serves the JSON-RPC API on POST /rpc, the well-known files and the web console at /console/. Without
            --database-url (or DATABASE_URL, or libpq's PGHOST/PGDATABASE), runs a private PostgreSQL cluster under
            --data-dir (default ./.routereg).
            ROUTEREG_ADMIN_TOKEN seeds an admin token; in embedded mode one is generated into the data directory.
            --per-ip-limit caps simultaneous connections per client address (0, the default, for none: behind a
            load balancer every connection comes from the balancer).
            --sign-in-limit: failed sign-ins (a wrong, revoked or expired token) per client address per minute before
            its further failures are answered 429 for a minute (default 10; 0 for no limit). Valid tokens are served.
            --read-only serves reads and refuses writes (FAILED_PRECONDITION), for a server on a hot standby (also
            detected with pg_is_in_recovery()); it checks the schema instead of migrating and polls for changes.
            --request-timeout is the deadline of a write whose client sent no X-Request-Timeout-Ms (default 10000).
            --max-snapshot-age: /readyz fails once the snapshot was not confirmed against the database for this
            long (default 300); /healthz (alias /livez) only says the process answers. See DEPLOYMENT.md.
            --threads sets the request threads (default \(defaultThreads), one per core: of 1×, 2× and 4× the cores,
            one per core used the least CPU per request and had the lowest p99; bench/OPTIMIZATIONS.md).
            The request log (one JSON line per request) goes to standard error unless --access-log names a file
            (appended to) or - (standard output); --quiet turns it off. It writes no client address unless
            --log-client-address. A writer thread writes it in batches:
            requests never wait for it, and lines it cannot keep up with are dropped and counted in
            routereg_log_lines_dropped_total on /metrics.
            --connection-memory is each connection's buffer for the request line and headers and the response
            headers (libmicrohttpd clears it after every request, so a smaller one costs less per request but
            refuses larger headers with 431: 16 KiB takes about 7.5 KB of headers, 32 KiB about 15 KB).
            The delivery watch fetches, for every domain with a generated document, what devices really get: Apple's
            CDN copy ({--apple-cdn-url}/a/v1/{host}) and what Google's Digital Asset Links API lists
            ({--asset-links-api-url}/v1/statements:list), every --delivery-interval seconds (default 3600, with
            jitter; a sixth of it while the newest revision is not served yet; backoff on errors). One server of a
            fleet observes at a time; every server reports the observations (Associations.Delivery, /metrics).
            --no-delivery-watch: this server never fetches (it still reports what another one observed).
            --click-retention-days: short links' click counters (and the per-domain counts of visits that found no
            link) of days older than this are deleted, in small batches, by one server of a fleet at a time
            (default 400, a year and a month; 0 keeps them forever).
            /rpc, /console/ and /metrics answer on hosts that are not registry domains (the API's own name,
            localhost); on a registry domain only if --admin-hosts names it (elsewhere: as an unknown path).
            /metrics also needs the token of --metrics-token-file (Authorization: Bearer), or without one a
            loopback client. /healthz, /livez, /readyz and /version answer everywhere.
            --config reads every flag above from a file, one NAME = VALUE per line (the flag without its dashes;
            true or false for a switch); flags on the command line win. Without --config,
            \(defaultConfigPath) is read if it exists (--config "" reads none).
            Under systemd (NOTIFY_SOCKET set) the server sends READY=1 once it serves, and STOPPING=1.
            """,
        flags: [
            .value("listen", "ADDR:PORT", "address to listen on (default 127.0.0.1:8080)"),
            .value("database-url", "URL", "PostgreSQL to use instead of an embedded cluster"),
            .value("data-dir", "DIR", "data directory (default ./.routereg)"),
            .value("pool-size", "N", "database connections, 1...256 (default 8)"),
            .value("threads", "N", "request threads, 1...256 (default \(defaultThreads): one per core)"),
            .value("cache-max-age", "SECONDS", "max-age of the well-known files, 0...31536000 (default 300)"),
            .value("per-ip-limit", "N", "simultaneous connections per client address, 0...100000 (default 0: none)"),
            .value(
                "sign-in-limit", "N", "failed sign-ins per client address a minute, 0...100000 (default 10; 0: none)"),
            .value("access-log", "PATH|-", "append the request log to PATH, or - for standard output"),
            .bool("quiet", "no request log"),
            .bool("log-client-address", "write the client's address in the request log (\"remote\")"),
            .value(
                "admin-hosts", "HOSTS", "registry domains (comma-separated) where /rpc, /console/, /metrics answer too"),
            .value("metrics-token-file", "FILE", "bearer token /metrics requires (default: loopback clients only)"),
            .bool("read-only", "serve reads and refuse writes (hot standby)"),
            .value(
                "request-timeout", "MS", "a write's deadline when its client sends none, 100...600000 (default 10000)"),
            .value("max-snapshot-age", "SECONDS", "/readyz fails past this age, 1...31536000 (default 300)"),
            .value(
                "connection-memory", "KIB",
                "per-connection buffer for headers, 8...1024 KiB (default \(Options.defaultConnectionMemoryKiB))"),
            .value(
                "apple-cdn-url", "URL", "Apple's AASA CDN, before /a/v1/{host} (default \(Options.defaultAppleCDN))"),
            .value(
                "asset-links-api-url", "URL",
                "Google's Digital Asset Links API, before /v1/statements:list (default \(Options.defaultAssetLinksAPI))"
            ),
            .value("delivery-interval", "SECONDS", "between two observations of a document, 1...604800 (default 3600)"),
            .bool("no-delivery-watch", "never fetch what Apple's CDN and Google serve from this server"),
            .value(
                "click-retention-days", "DAYS",
                "keep link click counters this many days, 0...36500 (default \(RegistryRuntime.Options.defaultClickRetentionDays); 0: forever)"
            ),
            .value(
                "webhook-private-hosts", "HOSTS",
                "webhook receivers (comma-separated hosts) allowed inside the network, over http too"),
            .value("config", "FILE", "read these settings from FILE (default \(defaultConfigPath) if present)"),
        ],
        examples: ["serve --listen 127.0.0.1:8080 --data-dir ./data"], globalFlags: [CommandTable.helpFlag],
        compatibility: .server { HelpFormatter.command(spec) }, action: .run(run))

    struct Options {
        var listen = "127.0.0.1:8080"
        var databaseURL: String?
        var dataDirectory = ".routereg"
        var poolSize = 8
        var threads = defaultThreads
        var cacheMaxAge = 300
        var perIPLimit = 0
        var signInLimit = 10
        var quiet = false
        var logClientAddress = false
        /// Registry domains where the admin surfaces answer anyway.
        var adminHosts: [String] = []
        /// The file holding the token /metrics requires.
        var metricsTokenFile: String?
        var readOnly = false
        var requestTimeoutMs = 10_000
        var maxSnapshotAge = 300
        /// Webhook receivers allowed inside the network.
        var webhookPrivateHosts: [String] = []
        var connectionMemoryKiB = defaultConnectionMemoryKiB
        /// Half of libmicrohttpd's default: it clears the whole buffer after every request, so a smaller one
        /// makes small requests cheaper, and 16 KiB still takes about 7.5 KB of request headers (8 KiB refuses
        /// 4 KB). The measurements are in bench/OPTIMIZATIONS.md, "Connection memory".
        static let defaultConnectionMemoryKiB = 16
        /// nil: standard error; "-": standard output; else a file appended to.
        var accessLog: String?
        var appleCDN = defaultAppleCDN
        var assetLinksAPI = defaultAssetLinksAPI
        var deliveryInterval = 3600
        var deliveryWatch = true
        var clickRetentionDays = RegistryRuntime.Options.defaultClickRetentionDays
        static let defaultAppleCDN = "https://app-site-association.cdn-apple.com"
        static let defaultAssetLinksAPI = "https://digitalassetlinks.googleapis.com"
    }

    /// The configuration file read when --config is not given (and it exists): where `make install` puts it.
    static let defaultConfigPath = "/etc/routereg/routereg.conf"

    /// Request threads unless --threads says otherwise: one per core, since more threads than cores cost more
    /// CPU per request and raise p99 (bench/OPTIMIZATIONS.md, "--threads").
    static var defaultThreads: Int { AvailableCores.count }

    /// Serves until SIGINT/SIGTERM; a failure stops any embedded cluster before it is reported.
    static func run(_ run: Invocation) throws {
        let arguments = try FlagFile.applying(
            to: run.arguments, flag: "config", defaultPath: defaultConfigPath, flags: run.spec.flags)
        let parsed = try options(arguments)
        do {
            try serve(parsed)
        } catch let error as StoreError {
            EmbeddedPostgres.stopAllRunning()
            throw CommandFailure(MigrateCommand.describe(error))
        } catch {
            EmbeddedPostgres.stopAllRunning()
            throw error
        }
    }

    /// The options the flags give, checked against their ranges.
    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        func number(_ flag: String, _ range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
            guard let text = arguments.value(flag) else { return fallback }
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("--\(flag) must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        var options = Options()
        options.listen = arguments.value("listen") ?? options.listen
        options.databaseURL = arguments.value("database-url")
        options.dataDirectory = arguments.value("data-dir") ?? options.dataDirectory
        options.poolSize = try number("pool-size", 1...256, default: options.poolSize)
        options.threads = try number("threads", 1...256, default: options.threads)
        options.cacheMaxAge = try number("cache-max-age", 0...31_536_000, default: options.cacheMaxAge)
        options.perIPLimit = try number("per-ip-limit", 0...100_000, default: options.perIPLimit)
        options.signInLimit = try number("sign-in-limit", 0...100_000, default: options.signInLimit)
        options.quiet = arguments.bool("quiet")
        options.logClientAddress = arguments.bool("log-client-address")
        if let hosts = arguments.value("admin-hosts") {
            options.adminHosts = try adminHosts(hosts)
        }
        if let path = arguments.value("metrics-token-file") {
            guard !path.isEmpty else { throw UsageError("--metrics-token-file needs a file path") }
            options.metricsTokenFile = path
        }
        options.readOnly = arguments.bool("read-only")
        options.requestTimeoutMs = try number("request-timeout", 100...600_000, default: options.requestTimeoutMs)
        options.maxSnapshotAge = try number("max-snapshot-age", 1...31_536_000, default: options.maxSnapshotAge)
        if let hosts = arguments.value("webhook-private-hosts") {
            options.webhookPrivateHosts = try adminHosts(hosts, flag: "webhook-private-hosts")
        }
        options.connectionMemoryKiB = try number("connection-memory", 8...1024, default: options.connectionMemoryKiB)
        if let path = arguments.value("access-log") {
            guard !path.isEmpty else { throw UsageError("--access-log needs a file path or -") }
            options.accessLog = path
        }
        func baseURL(_ flag: String, default fallback: String) throws(UsageError) -> String {
            guard let text = arguments.value(flag) else { return fallback }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http",
                url.host?.isEmpty == false, url.query == nil, url.fragment == nil
            else { throw UsageError("--\(flag) must be an http(s) URL without query, like \(fallback)") }
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        options.appleCDN = try baseURL("apple-cdn-url", default: options.appleCDN)
        options.assetLinksAPI = try baseURL("asset-links-api-url", default: options.assetLinksAPI)
        options.deliveryInterval = try number("delivery-interval", 1...604_800, default: options.deliveryInterval)
        options.deliveryWatch = !arguments.bool("no-delivery-watch")
        options.clickRetentionDays = try number(
            "click-retention-days", 0...36_500, default: options.clickRetentionDays)
        guard HTTPServerConfiguration.listenAddress(options.listen) != nil else {
            throw UsageError("--listen must look like 127.0.0.1:8080 or [::1]:8080")
        }
        return options
    }

    /// The hosts of `--admin-hosts`: names separated by commas, each a plain host name (no scheme, path or
    /// port), normalized as requests' `Host` is.
    static func adminHosts(_ text: String, flag: String = "admin-hosts") throws(UsageError) -> [String] {
        var hosts: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            let allowed = name.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "."
            }
            guard !name.isEmpty, allowed, !name.hasPrefix("."), !name.hasPrefix("-") else {
                throw UsageError(
                    "--\(flag) must be host names separated by commas, like api.example.com,console.example.com")
            }
            hosts.append(HostName.normalize(name))
        }
        return hosts
    }
}
