#if FUZZING
    import CLibFuzzerDriver
    import Foundation

    /// The target chosen by the first argument; read once, before libFuzzer starts calling back.
    let selectedTarget: FuzzTarget? = CommandLine.arguments.count > 1 ? FuzzTarget.named(CommandLine.arguments[1]) : nil

    /// libFuzzer's entry point. Defined because `-sanitize=fuzzer` links a `main` that needs it; SwiftPM
    /// renames our `main`, so `LibFuzzerEntry` starts the driver itself (STACK-NOTES.md).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        guard let data, let selectedTarget else { return 0 }
        selectedTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    /// Starts libFuzzer on the target named by the first argument, passing it the remaining arguments.
    enum LibFuzzerEntry {
        static func run() -> Int32 {
            guard selectedTarget != nil else {
                let names = FuzzTarget.all.map(\.name).joined(separator: "|")
                FileHandle.standardError.write(
                    Data("usage: routereg-fuzz \(names) [libFuzzer flags] [CORPUS...]\n".utf8))
                return 2
            }
            // libFuzzer sees argv without the target name.
            var arguments = [CommandLine.arguments[0]] + CommandLine.arguments.dropFirst(2)
            // Leaked on purpose: libFuzzer keeps pointers into argv for the whole run.
            var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            var argc = Int32(arguments.count)
            arguments.removeAll()
            return cStrings.withUnsafeMutableBufferPointer { buffer in
                var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
                // A closure without captures (a C function pointer): it reads the global target.
                return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    guard let data, let selectedTarget else { return 0 }
                    selectedTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
                    return 0
                }
            }
        }
    }
#endif
