import Foundation
import RouteCore
import RouteRegistryClient

/// A failure on the client side that is not a usage mistake (a file that cannot be read, an AASA file
/// that is not JSON): exit 1 (or `status`) with the message.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    var message: String
    /// The exit code: `CLI.exitRefused` unless the failure was not reaching something (`CLI.exitUnreachable`).
    var status: Int32
    init(_ message: String, status: Int32 = CLI.exitRefused) {
        self.message = message
        self.status = status
    }
    var description: String { message }
}

/// One run of one command: its parsed arguments, where it writes, and how it reaches the server.
final class Invocation {
    let spec: CommandSpec
    let arguments: ParsedArguments
    let console: Console
    let environment: CLIEnvironment
    let style: Style
    private let connect: (ClientSettings) -> any RegistryTransport
    private var transport: (any RegistryTransport)?
    /// The exit code when the command returns normally; a command that reports an outcome through it
    /// (`plan --detailed-exitcode`: 2 for changes) sets it.
    var exitStatus = CLI.exitOK

    init(
        spec: CommandSpec, arguments: ParsedArguments, console: Console, environment: CLIEnvironment,
        connect: @escaping (ClientSettings) -> any RegistryTransport
    ) {
        self.spec = spec
        self.arguments = arguments
        self.console = console
        self.environment = environment
        self.connect = connect
        style = Style(
            isTTY: environment.stdoutIsTTY, environment: environment.variables,
            noColorFlag: arguments.bool("no-color"))
    }

    /// `--json` was given: print the server's result bytes and nothing else.
    var json: Bool { arguments.bool("json") }

    /// A required positional (the parser has already checked it is there).
    func argument(_ index: Int) -> String { arguments.positionals[index] }

    /// Calls `method` and returns the decoded result with the bytes it was decoded from.
    func call<M: RPCMethodDescriptor>(_ method: M.Type, _ input: M.Input) throws -> (output: M.Output, raw: Data) {
        let raw = try callRaw(method: M.name, params: try CanonicalJSON.encode(input))
        do {
            return (try JSONDecoder().decode(M.Output.self, from: raw), raw)
        } catch {
            throw ClientError.invalidResponse(reason: "the result of \(M.name) does not have the expected shape")
        }
    }

    /// Calls `method` with params given as JSON bytes; returns the result bytes unchanged.
    func callRaw(method: String, params: Data) throws -> Data {
        try IdempotentRetry.call(method: method, params: params) { params in try send(method: method, params: params) }
    }

    private func send(method: String, params: Data) throws -> Data {
        if let transport { return try transport.call(method: method, params: params) }
        // Settings are resolved on the first call only, so commands that fail on their arguments never
        // complain about the server or the config file.
        let settings = try ClientSettings.resolve(
            serverFlag: arguments.value("server"), environment: environment.variables)
        let created = connect(settings)
        transport = created
        return try created.call(method: method, params: params)
    }

    /// Prints result bytes as they came, newline-terminated.
    func printJSON(_ raw: Data) {
        console.write(String(decoding: raw, as: UTF8.self))
        console.line()
    }

    /// Prints `text` followed by a newline.
    func print(_ text: String = "") { console.line(text) }

    /// A relative time for people.
    func ago(_ timestamp: String?) -> String {
        guard let timestamp else { return "" }
        return RelativeTime.describe(timestamp, now: environment.now)
    }
}
