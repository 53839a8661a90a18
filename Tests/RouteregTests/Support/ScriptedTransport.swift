import Foundation
import RouteCore

@testable import routereg

/// A transport that answers from a script (method → result JSON or error) and records every call, so a
/// command's output can be checked without a server.
final class ScriptedTransport: RegistryTransport {
    enum Answer {
        case result(String)
        case error(any Error)
    }

    private var answers: [String: [Answer]]
    /// Every call made: method and params JSON.
    private(set) var calls: [(method: String, params: String)] = []

    /// `answers[method]` are used in order; the last one repeats.
    init(_ answers: [String: [Answer]]) { self.answers = answers }

    func call(method: String, params: Data) throws -> Data {
        calls.append((method, String(decoding: params, as: UTF8.self)))
        guard var queue = answers[method], let answer = queue.first else {
            throw RegistryError(.unimplemented, "the script has no answer for \(method)")
        }
        if queue.count > 1 {
            queue.removeFirst()
            answers[method] = queue
        }
        switch answer {
        case .result(let json): return Data(json.utf8)
        case .error(let error): throw error
        }
    }
}

/// What one in-process run printed and returned.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command line in-process against `transport`, at a fixed "now", without colour.
func runCLI(
    _ arguments: [String], transport: ScriptedTransport, environment: [String: String] = ["HOME": "/nonexistent"],
    tty: Bool = false
) -> RunResult {
    let console = Console.captured()
    let status = CLI.run(
        arguments, console: console,
        environment: CLIEnvironment(variables: environment, stdoutIsTTY: tty, now: Fixtures.now),
        connect: { _ in transport })
    return RunResult(status: status, stdout: console.output, stderr: console.errorOutput)
}
