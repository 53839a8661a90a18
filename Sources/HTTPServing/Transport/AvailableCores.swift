import Foundation

/// The cores this process may run on: its CPU affinity (`taskset`, a container's cpuset), not every core of the
/// machine, which is what `ProcessInfo.activeProcessorCount` counts. A server pinned to one core of a large
/// machine then starts one request thread per core it has, not per core it cannot use.
public enum AvailableCores {
    public static var count: Int {
        // Glibc's module leaves out sched_getaffinity (a _GNU_SOURCE function); the kernel says the same here.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
            let cores = count(list: line.dropFirst("Cpus_allowed_list:".count)), cores > 0
        else { return ProcessInfo.processInfo.activeProcessorCount }
        return cores
    }

    /// How many cores a list such as `0-3,8,10-11` names; nil when it is not such a list.
    static func count(list: Substring) -> Int? {
        var total = 0
        let ranges = list.trimmingCharacters(in: .whitespaces).split(separator: ",", omittingEmptySubsequences: false)
        for range in ranges {
            let bounds = range.split(separator: "-").map { Int($0) }
            switch bounds.count {
            case 1: guard bounds[0] != nil else { return nil }; total += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
                total += high - low + 1
            default: return nil
            }
        }
        return total > 0 ? total : nil
    }
}
