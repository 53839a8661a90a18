import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command reads from the world besides its arguments: environment variables, whether stdout is a
/// terminal, the clock (injected so tests print stable relative times) and standard input (for `-` files).
struct CLIEnvironment: Sendable {
    var variables: [String: String]
    var stdoutIsTTY: Bool
    var now: Date
    var readStandardInput: @Sendable () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }

    /// The running process's environment.
    static func current() -> CLIEnvironment {
        CLIEnvironment(
            variables: ProcessInfo.processInfo.environment, stdoutIsTTY: isatty(STDOUT_FILENO) == 1, now: Date())
    }
}
