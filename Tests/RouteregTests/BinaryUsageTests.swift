import Foundation
import Testing

@testable import routereg

/// Every command through the built binary: `--help` (golden files), usage errors (exit 2, one line on
/// stderr, nothing on stdout), and an unreachable server (exit 3).
@Suite(.enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct BinaryUsageTests {
    /// Every command: all are parsed by the shared parser and helped from the table.
    static let parsedCommands = CommandTable.standard.commands.map(\.path)

    /// The commands that word usage errors the table's way (`serve`, `migrate` and `aasa check` keep theirs).
    static let tableWordedCommands = parsedCommands.filter { CommandTable.standard.command($0)!.compatibility == nil }

    @Test(arguments: parsedCommands)
    func helpMatchesGolden(path: [String]) async throws {
        let result = try await BinaryRunner.run(path + ["--help"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        Golden.check(machineIndependent(result.stdout), "help/\(path.joined(separator: "-")).txt")
        let short = try await BinaryRunner.run(path + ["-h"])
        #expect(short.stdout == result.stdout)
    }

    /// `serve --help` states the --threads default, this machine's core count; the golden file says N.
    func machineIndependent(_ help: String) -> String {
        help.replacingOccurrences(
            of: #"default \d+(?=[:,] one per core)"#, with: "default N", options: .regularExpression)
    }

    @Test func serveHelpStatesTheThreadsDefault() async throws {
        let help = try await BinaryRunner.run(["serve", "--help"]).stdout
        let cores = ServeCommand.defaultThreads
        #expect(help.contains("--threads N "))
        #expect(help.contains("request threads, 1...256 (default \(cores): one per core)"))
        #expect(help.contains("--threads sets the request threads (default \(cores), one per core"))
    }

    /// The commands that had their own help before: `routereg help X` prints what `X --help` does.
    @Test(arguments: [["serve"], ["migrate"], ["aasa", "check"]])
    func helpCommandReachesTheFormerlySeparateCommands(path: [String]) async throws {
        let result = try await BinaryRunner.run(path + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: routereg \(path.joined(separator: " ")) "))
        #expect(try await BinaryRunner.run(["help"] + path).stdout == result.stdout)
    }

    @Test func rootAndGroupHelp() async throws {
        let root = try await BinaryRunner.run([])
        #expect(root.status == 0)
        Golden.check(root.stdout, "help/root.txt")
        #expect(try await BinaryRunner.run(["--help"]).stdout == root.stdout)
        #expect(try await BinaryRunner.run(["help"]).stdout == root.stdout)
        for group in CommandTable.standard.groups.map(\.name) {
            let help = try await BinaryRunner.run([group, "--help"])
            #expect(help.status == 0)
            Golden.check(help.stdout, "help/group-\(group).txt")
            #expect(try await BinaryRunner.run(["help", group]).stdout == help.stdout)
        }
        let routeAdd = try await BinaryRunner.run(["route", "add", "--help"])
        #expect(try await BinaryRunner.run(["help", "route", "add"]).stdout == routeAdd.stdout)
    }

    /// `serve` and `migrate` kept their form: `error: MESSAGE`, then the command's help, on stderr.
    @Test(arguments: [
        (["serve", "--no-such-flag"], "unknown argument --no-such-flag"),
        (["serve", "--listen=127.0.0.1:1", "extra"], "unknown argument extra"),
        (["serve", "--quiet=yes"], "unknown argument yes"),
        (["serve", "--json"], "unknown argument --json"),
        (["serve", "--threads"], "--threads needs a value"),
        (["serve", "--threads", "0"], "--threads must be a number in 1...256"),
        (["serve", "--threads", "1", "--threads", "0"], "--threads must be a number in 1...256"),
        (["serve", "--pool-size=x"], "--pool-size must be a number in 1...256"),
        (["serve", "--connection-memory", "4"], "--connection-memory must be a number in 8...1024"),
        (["serve", "--click-retention-days", "36501"], "--click-retention-days must be a number in 0...36500"),
        (["serve", "--access-log="], "--access-log needs a file path or -"),
        (["serve", "--listen", "nowhere"], "--listen must look like 127.0.0.1:8080 or [::1]:8080"),
        (
            ["serve", "--admin-hosts", "api.example.com,,x"],
            "--admin-hosts must be host names separated by commas, like api.example.com,console.example.com"
        ),
        (
            ["serve", "--admin-hosts=https://api.example.com"],
            "--admin-hosts must be host names separated by commas, like api.example.com,console.example.com"
        ),
        (["serve", "--metrics-token-file="], "--metrics-token-file needs a file path"),
        (["migrate", "--database-url"], "--database-url needs a value"),
        (["migrate", "--server", "http://x"], "unknown argument --server"),
        (["migrate", "extra"], "unknown argument extra"),
    ])
    func serverCommandsKeepTheirUsageErrors(arguments: [String], message: String) async throws {
        let help = try await BinaryRunner.run([arguments[0], "--help"]).stdout
        let result = try await BinaryRunner.run(arguments)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == "error: \(message)\n" + help)
    }

    /// A metrics token file that is missing or holds too short a token stops `serve` before it starts anything.
    @Test func serveRefusesAWeakMetricsToken() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-token-\(UUID())")
        try Data("short\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let weak = try await BinaryRunner.run([
            "serve", "--metrics-token-file", file.path, "--data-dir", "/nonexistent/x",
        ])
        #expect(weak.status == 1 && weak.stdout.isEmpty)
        #expect(weak.stderr.contains("must hold one token of at least 16 characters"), "\(weak.stderr)")
        let missing = try await BinaryRunner.run(["serve", "--metrics-token-file", file.path + ".none"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read"), "\(missing.stderr)")
    }

    /// A database `migrate` cannot reach exits 3, as an unreachable registry server does.
    @Test func migrateExitsThreeWhenTheDatabaseIsUnreachable() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = "postgresql://127.0.0.1:\(closed.number)/routereg?connect_timeout=5"
        let viaEnvironment = try await BinaryRunner.run(["migrate"], environment: ["DATABASE_URL": url])
        #expect(viaEnvironment.status == 3 && viaEnvironment.stdout.isEmpty)
        #expect(viaEnvironment.stderr == "error: database error connectionFailed\n")
        let viaFlag = try await BinaryRunner.run(["migrate", "--database-url=\(url)"])
        #expect(viaFlag.status == 3 && viaFlag.stderr == viaEnvironment.stderr)
    }

    @Test(arguments: tableWordedCommands)
    func unknownFlagIsAUsageError(path: [String]) async throws {
        let result = try await BinaryRunner.run(path + ["--no-such-flag"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(
            result.stderr == "error: unknown flag --no-such-flag for 'routereg \(path.joined(separator: " "))' "
                + "(see 'routereg \(path.joined(separator: " ")) --help')\n")
    }

    @Test(
        arguments: tableWordedCommands.filter { path in
            CommandTable.standard.command(path)!.positionals.contains { !$0.optional }
        })
    func missingArgumentIsAUsageError(path: [String]) async throws {
        let spec = CommandTable.standard.command(path)!
        let first = spec.positionals.first { !$0.optional }!
        let result = try await BinaryRunner.run(path)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(
            result.stderr == "error: missing argument \(first.name) for '\(spec.displayName)' "
                + "(see '\(spec.displayName) --help')\n")
    }

    @Test(arguments: [
        (["frob"], "error: unknown command \"frob\" (see 'routereg help')\n"),
        (
            ["route"],
            "error: 'routereg route' needs a command: add, list, show, update, move, switch-off, switch-on, remove (see 'routereg route --help')\n"
        ),
        (
            ["route", "add", "badoo", "x", "/x/*", "--since", "ios=five"],
            "error: --since ios: version \"five\" must be 1 to 4 dot-separated numbers, like 5.12.0\n"
        ),
        (
            ["release", "publish", "badoo", "web", "1.0"],
            "error: PLATFORM: \"web\" is not a platform (ios or android)\n"
        ),
        (["app", "list", "--page-size", "0"], "error: --page-size: \"0\" is not a positive number\n"),
        (
            ["app", "list", "--server", "localhost:8080"],
            "error: --server: \"localhost:8080\" is not an http(s) URL like http://127.0.0.1:8080\n"
        ),
    ])
    func badValuesAreUsageErrors(arguments: [String], stderr: String) async throws {
        let result = try await BinaryRunner.run(arguments)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr == stderr)
    }

    @Test func connectionRefusedExitsThree() async throws {
        let closed = try ClosedPort()
        let port = closed.number
        defer { withExtendedLifetime(closed) {} }
        let result = try await BinaryRunner.run(["app", "list", "--server", "http://127.0.0.1:\(port)"])
        #expect(result.status == 3 && result.stdout.isEmpty)
        #expect(result.stderr == "error: cannot reach the registry: connection refused\n")
        let viaEnvironment = try await BinaryRunner.run(
            ["matrix", "badoo", "ios", "--json"], environment: ["ROUTEREG_SERVER": "http://127.0.0.1:\(port)"])
        #expect(viaEnvironment.status == 3)
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await BinaryRunner.run(["version"])
        #expect(result.status == 0 && result.stdout == "routereg \(MiscCommands.version)\n")
        #expect(
            try await BinaryRunner.run(["version", "--json"]).stdout == "{\"version\":\"\(MiscCommands.version)\"}\n")
    }
}

/// A loopback port nothing listens on: bound, read back, and closed again.
/// A loopback port where connections are refused, for as long as the value lives: the socket stays bound but
/// never listens. Closing it at once (as this helper first did) let a server started by a parallel test take
/// the same ephemeral port, so the CLI reached that server instead of a refusal.
final class ClosedPort {
    let number: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw CocoaError(.fileWriteUnknown)
        }
        self.descriptor = descriptor
        number = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
