/// One fuzz target: a name for the command line and a function that must survive any bytes.
///
/// A target returns normally for every input, refused or accepted; it traps (`preconditionFailure`) only
/// when an invariant of an accepted input breaks, so libFuzzer reports it as a crash with the input saved.
struct FuzzTarget: Sendable {
    /// The name given on the command line (`jsonrpc`, `aasa`, `url`, `version`).
    let name: String
    /// Feeds one input through the code under test.
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "jsonrpc", run: JSONRPCFuzz.run),
        FuzzTarget(name: "aasa", run: AASAFuzz.run),
        FuzzTarget(name: "url", run: URLFuzz.run),
        FuzzTarget(name: "version", run: VersionFuzz.run),
    ]

    /// The target called `name`, if there is one.
    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Stops the process the way libFuzzer notices, naming the broken invariant.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { preconditionFailure("fuzz invariant broken: \(message())") }
}
