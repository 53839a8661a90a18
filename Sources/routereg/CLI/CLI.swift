import Foundation
import RouteCore
import RouteRegistryClient

/// The command-line entry point: finds the command, parses its arguments, runs it, and turns every
/// outcome into an exit code and at most one line on stderr.
///
/// Exit codes: 0 success, 1 the server refused (application or protocol error) or a local failure,
/// 2 usage error (nothing was sent), 3 the server could not be reached. A command given
/// `--detailed-exitcode` (`plan`) answers Terraform's way instead: 0 no changes, 2 changes, 1 any error.
enum CLI {
    static let exitOK: Int32 = 0
    static let exitRefused: Int32 = 1
    static let exitUsage: Int32 = 2
    static let exitUnreachable: Int32 = 3
    /// `plan --detailed-exitcode`: the plan has changes (Terraform's 2).
    static let exitChanges: Int32 = 2

    /// Runs one command line (without the program name).
    static func run(
        _ arguments: [String], table: CommandTable = .standard, console: Console,
        environment: CLIEnvironment,
        connect: @escaping (ClientSettings) -> any RegistryTransport = { HTTPTransport(settings: $0) }
    ) -> Int32 {
        do {
            switch try table.resolve(arguments) {
            case .root(let rest):
                if rest.isEmpty || rest.contains("-h") || rest.contains("--help") {
                    console.write(HelpFormatter.root(table))
                    return exitOK
                }
                _ = try ArgumentParser.parse(
                    rest, flags: CommandTable.globalFlags, positionals: [], command: "routereg")
                throw UsageError("missing command (see 'routereg help')")
            case .group(let noun, let rest):
                if rest.contains("-h") || rest.contains("--help") {
                    console.write(HelpFormatter.group(noun, in: table))
                    return exitOK
                }
                let verbs = table.commands(in: noun).map { $0.path[1] }.joined(separator: ", ")
                throw UsageError("'routereg \(noun)' needs a command: \(verbs) (see 'routereg \(noun) --help')")
            case .command(let spec, let rest):
                return try run(spec, rest, console: console, environment: environment, connect: connect)
            }
        } catch {
            let (code, message) = describe(error)
            console.errorLine("error: " + message)
            return code
        }
    }

    private static func run(
        _ spec: CommandSpec, _ rest: [String], console: Console, environment: CLIEnvironment,
        connect: @escaping (ClientSettings) -> any RegistryTransport
    ) throws -> Int32 {
        switch spec.action {
        case .run(let body):
            do {
                let parsed = try ArgumentParser.parse(
                    rest, flags: spec.flags + spec.globalFlags, positionals: spec.positionals,
                    command: spec.displayName, lastValueWins: spec.compatibility != nil)
                if parsed.helpRequested {
                    console.write(HelpFormatter.command(spec))
                    return exitOK
                }
                let invocation = Invocation(
                    spec: spec, arguments: parsed, console: console, environment: environment, connect: connect)
                try body(invocation)
                return invocation.exitStatus
            } catch {
                // 2 means "changes" to a script that asked for detailed exit codes, so every failure is 1.
                if rest.contains("--detailed-exitcode") {
                    let (_, message) = describe(error)
                    console.errorLine("error: " + message)
                    return exitRefused
                }
                guard let compatibility = spec.compatibility else { throw error }
                let (code, message) = describe(error)
                console.errorLine(compatibility.failureText(error, message: message))
                return code
            }
        }
    }

    /// The exit code and the one-line message for a failure.
    static func describe(_ error: any Error) -> (Int32, String) {
        switch error {
        case let usage as UsageError:
            return (exitUsage, usage.message)
        case let refusal as RegistryError:
            return (exitRefused, describe(refusal))
        case let client as ClientError:
            switch client {
            case .connectionFailed, .timedOut, .httpStatus:
                return (exitUnreachable, client.description)
            case .protocolError, .invalidResponse, .invalidRequest:
                return (exitRefused, client.description)
            }
        case let failure as CommandFailure:
            return (failure.status, failure.message)
        default:
            return (exitRefused, String(describing: error))
        }
    }

    /// `route.platforms.ios.since: ...` for bad fields, the server's sentence otherwise, plus what to do
    /// about missing or weak credentials.
    static func describe(_ error: RegistryError) -> String {
        var text: String
        if let first = error.fieldViolations.first {
            text = "\(first.field): \(first.description)"
            if error.fieldViolations.count > 1 { text += " (and \(error.fieldViolations.count - 1) more)" }
        } else {
            text = error.message.isEmpty ? error.code.name : error.message
        }
        switch error.code {
        case .unauthenticated: text += " (set ROUTEREG_TOKEN or the token in ~/.config/routereg/config.json)"
        case .permissionDenied: text += " (the token's role does not allow this)"
        case .aborted: text += " (someone changed it meanwhile: fetch it again and retry)"
        default: break
        }
        return text
    }
}
