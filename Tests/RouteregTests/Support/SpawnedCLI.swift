import Foundation
import RouteStore

/// Runs the built `routereg` binary through the project's `posix_spawn` helper (`ChildProcess`), never
/// Foundation's `Process`, on a thread of its own: the helper blocks in `waitpid`, and the cooperative pool
/// must stay free for the in-process server the child may be talking to.
enum SpawnedCLI {
    /// How a run ended: the exit status and what it printed (stdout and stderr interleaved).
    struct Outcome: Sendable {
        var status: Int32
        var output: String
    }

    /// Runs `routereg arguments` with `environment` added (through env(1): the helper passes its own
    /// environment on) and an empty HOME, so no developer config leaks in.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        guard let executable = BinaryRunner.executable else { throw CocoaError(.fileNoSuchFile) }
        let settings = ["HOME=\(BinaryRunner.emptyHome)"] + environment.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
        let child = ChildProcess(executable: "/usr/bin/env", arguments: settings + [executable.path] + arguments)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    let outcome = try child.run()
                    continuation.resume(returning: Outcome(status: outcome.status, output: outcome.output))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }
}
