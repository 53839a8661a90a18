import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Connects to the first host of a `ConnectPlan` that answers, every host on a socket of its own and all of
/// them under one deadline, with libpq's asynchronous connect (`PQconnectStartParams`, `PQconnectPoll`).
///
/// Hosts are started in the plan's order, the next one 250 ms after the last (or at once when one fails), as
/// Happy Eyeballs (RFC 8305) staggers addresses: healthy hosts keep libpq's order of preference, and a hung
/// one (it accepted the TCP connection and never answers) costs 250 ms instead of the whole deadline. libpq
/// still checks `target_session_attrs` on each, so a standby is refused where a primary is asked for. The
/// losers are closed; nothing outlives `run`.
struct ConnectRace {
    /// How long a started host has before the next one is started beside it.
    static let stagger: Duration = .milliseconds(250)

    let plan: ConnectPlan
    /// libpq options that come before the plan's own (which override them).
    let defaults: [(String, String)]
    let deadline: ContinuousClock.Instant

    /// The connected handle (`CONNECTION_OK`), owned by the caller. Throws `.deadlineExceeded` when no host
    /// connected in time, `.connectionFailed` with every host's reason when all of them failed.
    func run() throws -> OpaquePointer {
        guard plan.targetSessionAttributes == "prefer-standby" else {
            return try race(targetSessionAttributes: nil)
        }
        // libpq's prefer-standby is two passes (a standby, then anything): one host per attempt would
        // take the first that answers, so do the passes here.
        do {
            return try race(targetSessionAttributes: "standby")
        } catch let error where error.code == .connectionFailed {
            return try race(targetSessionAttributes: "any")
        }
    }

    private struct Candidate {
        var host: ConnectPlan.Host
        var description: String {
            let name = host.name ?? "the default host"
            let shown = host.address.map { $0 == name ? name : "\(name) (\($0))" } ?? name
            return host.port.map { "\(shown):\($0)" } ?? shown
        }
    }

    private struct Running {
        let handle: OpaquePointer
        let candidate: Candidate
        var polling: PostgresPollingStatusType
    }

    private func race(targetSessionAttributes: String?) throws(StoreError) -> OpaquePointer {
        var resolutions: [Int: HostResolution] = [:]
        for (index, host) in plan.hosts.enumerated() where host.needsResolution {
            resolutions[index] = HostResolution(name: host.name!)
        }
        var expanded = Set<Int>()
        var waiting: [Candidate] = []
        var running: [Running] = []
        var failures: [String] = []
        var nextStart = ContinuousClock.now
        defer { for attempt in running { PQfinish(attempt.handle) } }

        while true {
            // Hosts join in the plan's order as their addresses are known; a name still resolving does not
            // hold back the hosts after it.
            for (index, host) in plan.hosts.enumerated() where !expanded.contains(index) {
                guard let resolution = resolutions[index] else {
                    expanded.insert(index)
                    waiting.append(Candidate(host: host))
                    continue
                }
                switch resolution.result {
                case nil:
                    continue
                case .success(let addresses)?:
                    expanded.insert(index)
                    waiting += addresses.map { address in
                        var resolved = host
                        resolved.address = address
                        return Candidate(host: resolved)
                    }
                case .failure(let error)?:
                    expanded.insert(index)
                    failures.append(error.logDetail)
                }
            }
            let now = ContinuousClock.now
            if now >= deadline {
                let resolving = plan.hosts.indices.filter { !expanded.contains($0) }.compactMap { plan.hosts[$0].name }
                let reasons = failures + resolving.map { "still resolving host \"\($0)\"" }
                throw StoreError(
                    .deadlineExceeded,
                    detail: "no database host answered before the deadline"
                        + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"))
            }
            if !waiting.isEmpty && (running.isEmpty || now >= nextStart) {
                let candidate = waiting.removeFirst()
                switch start(candidate, targetSessionAttributes: targetSessionAttributes) {
                case .connecting(let handle):
                    running.append(Running(handle: handle, candidate: candidate, polling: PGRES_POLLING_WRITING))
                    nextStart = now + Self.stagger
                case .failed(let reason):
                    failures.append(reason)
                }
                continue
            }
            if running.isEmpty && waiting.isEmpty && expanded.count == plan.hosts.count {
                throw StoreError(.connectionFailed, detail: failures.joined(separator: "; "))
            }
            var wake = deadline
            if !waiting.isEmpty { wake = min(wake, nextStart) }
            if expanded.count < plan.hosts.count { wake = min(wake, now + .milliseconds(10)) }
            let ready = wait(for: running, until: wake)
            for index in ready.reversed() {
                let polling = PQconnectPoll(running[index].handle)
                switch polling {
                case PGRES_POLLING_OK:
                    let winner = running.remove(at: index)
                    return winner.handle
                case PGRES_POLLING_FAILED:
                    let lost = running.remove(at: index)
                    failures.append("\(lost.candidate.description): \(Self.message(lost.handle))")
                    PQfinish(lost.handle)
                    nextStart = .now
                default:
                    running[index].polling = polling
                }
            }
        }
    }

    /// Starts connecting to one candidate; libpq neither resolves a name nor waits here, since the candidate
    /// has its address or is a socket directory.
    private enum Start {
        case connecting(OpaquePointer)
        case failed(String)
    }

    private func start(_ candidate: Candidate, targetSessionAttributes: String?) -> Start {
        var parameters = defaults + plan.options
        if let name = candidate.host.name { parameters.append(("host", name)) }
        if let address = candidate.host.address { parameters.append(("hostaddr", address)) }
        if let port = candidate.host.port { parameters.append(("port", port)) }
        if let targetSessionAttributes { parameters.append(("target_session_attrs", targetSessionAttributes)) }
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        guard let handle = PQconnectStartParams(keywordPointers, valuePointers, 0) else {
            return .failed("\(candidate.description): out of memory")
        }
        guard PQstatus(handle) != CONNECTION_BAD else {
            let reason = "\(candidate.description): \(Self.message(handle))"
            PQfinish(handle)
            return .failed(reason)
        }
        return .connecting(handle)
    }

    /// Waits until one of `running`'s sockets is ready for what its connect waits for, or `wake`; returns
    /// the indexes to poll (a socket libpq has not opened yet is polled at once).
    private func wait(for running: [Running], until wake: ContinuousClock.Instant) -> [Int] {
        var descriptors = running.map { attempt in
            pollfd(
                fd: PQsocket(attempt.handle),
                events: Int16(attempt.polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
        }
        let unopened = descriptors.indices.filter { descriptors[$0].fd < 0 }
        if !unopened.isEmpty { return unopened }
        let remaining = ContinuousClock.now.duration(to: wake)
        let milliseconds = max(
            0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(milliseconds, 60_000)))
        guard ready > 0 else { return [] }
        return descriptors.indices.filter { descriptors[$0].revents != 0 }
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
