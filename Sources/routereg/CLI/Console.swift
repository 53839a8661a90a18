import Foundation

/// Where a command writes: the process's stdout/stderr, or buffers (for in-process tests).
final class Console {
    /// Everything written to stdout so far, when capturing.
    private(set) var output = ""
    /// Everything written to stderr so far, when capturing.
    private(set) var errorOutput = ""
    private let capturing: Bool

    private init(capturing: Bool) { self.capturing = capturing }

    /// Writes to the process's standard streams.
    static func standard() -> Console { Console(capturing: false) }

    /// Keeps everything in `output` and `errorOutput`.
    static func captured() -> Console { Console(capturing: true) }

    /// Writes `text` to stdout as is.
    func write(_ text: String) {
        if capturing { output += text } else { FileHandle.standardOutput.write(Data(text.utf8)) }
    }

    /// Writes one line to stdout.
    func line(_ text: String = "") { write(text + "\n") }

    /// Writes one line to stderr.
    func errorLine(_ text: String) {
        if capturing {
            errorOutput += text + "\n"
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }
}
