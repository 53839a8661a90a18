import Dispatch
import Foundation
import RPCServer
import RegistryService
import RouteCore
import RouteStore

/// `routereg serve`: the registry server, on an embedded PostgreSQL unless a database is configured.
enum ServeCommand {
    static let usage = """
        usage: routereg serve [--listen ADDR:PORT] [--database-url URL] [--data-dir DIR] [--pool-size N]
                              [--threads N] [--cache-max-age SECONDS] [--per-ip-limit N]
                              [--access-log PATH|-] [--quiet]
                              [--read-only] [--request-timeout MS] [--max-snapshot-age SECONDS]

        Serves the JSON-RPC API on POST /rpc, the well-known files and the web console at /console/. Without
        --database-url (or DATABASE_URL, or libpq's PGHOST/PGDATABASE), runs a private PostgreSQL cluster under
        --data-dir (default ./.routereg).
        ROUTEREG_ADMIN_TOKEN seeds an admin token; in embedded mode one is generated into the data directory.
        --per-ip-limit caps simultaneous connections per client address (0, the default, for none: behind a
        load balancer every connection comes from the balancer).
        --read-only serves reads and refuses writes (FAILED_PRECONDITION), for a server on a hot standby (also
        detected with pg_is_in_recovery()); it checks the schema instead of migrating and polls for changes.
        --request-timeout is the deadline of a write whose client sent no X-Request-Timeout-Ms (default 10000).
        --max-snapshot-age: /readyz fails once the snapshot was not confirmed against the database for this
        long (default 300); /healthz (alias /livez) only says the process answers. See DEPLOYMENT.md.
        --threads sets the request threads (default \(defaultThreads), one per core: of 1×, 2× and 4× the cores,
        one per core used the least CPU per request and had the lowest p99; bench/OPTIMIZATIONS.md).
        The request log (one JSON line per request) goes to standard error unless --access-log names a file
        (appended to) or - (standard output); --quiet turns it off. A writer thread writes it in batches:
        requests never wait for it, and lines it cannot keep up with are dropped and counted in
        routereg_log_lines_dropped_total on /metrics.

        example: routereg serve --listen 127.0.0.1:8080
        """

    struct Options {
        var listen = "127.0.0.1:8080"
        var databaseURL: String?
        var dataDirectory = ".routereg"
        var poolSize = 8
        var threads = defaultThreads
        var cacheMaxAge = 300
        var perIPLimit = 0
        var quiet = false
        var readOnly = false
        var requestTimeoutMs = 10_000
        var maxSnapshotAge = 300
        /// nil: standard error; "-": standard output; else a file appended to.
        var accessLog: String?
    }

    /// Request threads unless --threads says otherwise: one per core, measured against two and four per core
    /// (bench/OPTIMIZATIONS.md, "--threads").
    static var defaultThreads: Int { ProcessInfo.processInfo.activeProcessorCount }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do { options = try parse(arguments) } catch {
            if case .help = error {
                print(usage)
                return 0
            }
            FileHandle.standardError.write(Data("error: \(error.message)\n\(usage)\n".utf8))
            return 2
        }
        do {
            try serve(options)
            return 0
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            EmbeddedPostgres.stopAllRunning()
            return 1
        }
    }

    enum UsageError: Error {
        case help
        case bad(String)
        var message: String {
            switch self {
            case .help: "help"
            case .bad(let text): text
            }
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw .bad("\(flag) needs a value") }
            return next
        }
        func number(_ flag: String, _ text: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            guard let value = Int(text), range.contains(value) else {
                throw .bad("\(flag) must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        while let argument = rest.popFirst() {
            var flag = argument
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                rest.insert(String(argument[argument.index(after: equals)...]), at: rest.startIndex)
            }
            switch flag {
            case "-h", "--help": throw .help
            case "--listen": options.listen = try value(flag)
            case "--database-url": options.databaseURL = try value(flag)
            case "--data-dir": options.dataDirectory = try value(flag)
            case "--pool-size": options.poolSize = try number(flag, try value(flag), 1...256)
            case "--threads": options.threads = try number(flag, try value(flag), 1...256)
            case "--cache-max-age": options.cacheMaxAge = try number(flag, try value(flag), 0...31_536_000)
            case "--per-ip-limit": options.perIPLimit = try number(flag, try value(flag), 0...100_000)
            case "--quiet": options.quiet = true
            case "--read-only": options.readOnly = true
            case "--request-timeout": options.requestTimeoutMs = try number(flag, try value(flag), 100...600_000)
            case "--max-snapshot-age": options.maxSnapshotAge = try number(flag, try value(flag), 1...31_536_000)
            case "--access-log":
                let path = try value(flag)
                guard !path.isEmpty else { throw .bad("--access-log needs a file path or -") }
                options.accessLog = path
            default: throw .bad("unknown argument \(argument)")
            }
        }
        guard HTTPServerConfiguration.listenAddress(options.listen) != nil else {
            throw .bad("--listen must look like 127.0.0.1:8080 or [::1]:8080")
        }
        return options
    }
}
