import Foundation
import RouteCore

// The matcher benchmark: ns per decision (one URL against one compiled rule list) at 100, 1,000 and
// 10,000 rules, single-threaded. Run it in release mode:
//   swift run -c release routereg-bench [--linear]
// `--linear` also measures the reference linear scan, to show what the index buys.

let measureLinear = CommandLine.arguments.contains("--linear")
// `--rules N` measures one size only (for profiling).
let sizes =
    CommandLine.arguments.firstIndex(of: "--rules").flatMap { index in
        CommandLine.arguments.dropFirst(index + 1).first.flatMap { Int($0) }.map { [$0] }
    } ?? [100, 1_000, 10_000]

/// CPU time of this thread, in nanoseconds: the measure of "one core" that other processes on a busy
/// machine cannot inflate (wall time would count the time the thread waits for a CPU).
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs `body` over the URL sample until at least `minimum` CPU nanoseconds have passed; returns
/// ns/decision and a checksum of the answers (so the work cannot be optimised away).
func measure(_ urls: [LinkURL], minimum: UInt64 = 500_000_000, _ body: (LinkURL) -> Int?) -> (Double, Int) {
    var checksum = 0
    for url in urls { checksum &+= body(url) ?? -1 }  // warm-up
    var decisions = 0
    let start = threadCPUNanoseconds()
    var elapsed: UInt64 = 0
    repeat {
        for url in urls { checksum &+= body(url) ?? -1 }
        decisions += urls.count
        elapsed = threadCPUNanoseconds() - start
    } while elapsed < minimum
    return (Double(elapsed) / Double(decisions), checksum)
}

func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

func format(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return decimals == 0 ? String(Int(rounded)) : String(rounded)
}

print("routereg-bench: first-match decisions on one core (thread CPU time)")
print(pad("rules", 7) + pad("ns/decision", 14) + pad("decisions/s", 14) + (measureLinear ? pad("linear ns", 12) : ""))
var results: [Int: Double] = [:]
for count in sizes {
    let corpus = BenchmarkCorpus(ruleCount: count)
    let ruleSet = RuleSet(rules: corpus.rules)
    for url in corpus.urls where ruleSet.firstMatch(url) != ruleSet.firstMatchLinear(url) {
        print("MISMATCH between firstMatch and firstMatchLinear for \(url)")
    }
    let (ns, checksum) = measure(corpus.urls) { ruleSet.firstMatch($0) }
    results[count] = ns
    var line = pad(String(count), 7) + pad(format(ns, decimals: 1), 14) + pad(format(1e9 / ns, decimals: 0), 14)
    if measureLinear {
        let (linear, _) = measure(corpus.urls, minimum: 200_000_000) { ruleSet.firstMatchLinear($0) }
        line += pad(format(linear, decimals: 1), 12)
    }
    print(line + "   (checksum \(checksum))")
}
if let small = results[100], let large = results[10_000] {
    print("10,000 / 100 rules: \(format(large / small, decimals: 2))x")
}
