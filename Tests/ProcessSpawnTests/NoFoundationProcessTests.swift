import Foundation
import Testing

/// Foundation's process launcher (its `run` method) crashes now and then on Linux in this toolchain (an over-read in
/// `findMaximumOpenFromProcSelfFD`), taking a whole test run down: every child goes through `Spawn`.
@Suite struct NoFoundationProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A construction of Foundation's process type, a call of its `run`, its qualified name, or a declaration
    /// typed with it.
    static func pattern() throws -> Regex<AnyRegexOutput> {
        try Regex(#"(^|[^A-Za-z0-9_])(Process\(\)|Process\.run\(|Foundation\.Process\b)|:\s*Process\b"#)
    }

    @Test func everyChildGoesThroughSpawn() throws {
        let pattern = try Self.pattern()
        var offenders: [String] = []
        for folder in ["Sources", "Tests", "Clients", "Fuzz"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") && !file.contains(".build") {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    if code.contains(pattern) { offenders.append("\(folder)/\(file):\(number + 1): \(line)") }
                }
            }
        }
        #expect(
            offenders.isEmpty,
            "use Spawn (Sources/ProcessSpawn), not Foundation's Process:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theScanFindsWhatItLooksFor() throws {
        let pattern = try Self.pattern()
        // Spelled in pieces, so this file does not trip the scan above.
        let name = "Proc" + "ess"
        #expect("let p = \(name)()".contains(pattern))
        #expect("var p: \(name)".contains(pattern))
        #expect("try Foundation.\(name)".contains(pattern))
        #expect(!"let p = SpawnedProcess(pid: 1)".contains(pattern))
        #expect(!"ProcessInfo.processInfo".contains(pattern))
    }
}
