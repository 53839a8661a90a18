import Foundation
import ProcessSpawn
import Testing

/// A test process that dies mid-run (SIGKILL, or a crash such as the SIGSEGV Foundation's process launcher
/// caused) leaves nothing behind: neither the `routereg serve` it spawned nor the PostgreSQL cluster it
/// started. `routereg-orphan-probe` plays the test process; it uses the same harness the tests use.
@Suite(
    .serialized,
    .enabled(
        if: Products.executable("routereg-orphan-probe") != nil && Products.executable("routereg") != nil,
        "routereg-orphan-probe and routereg are built by swift build --build-tests"))
struct OrphanTests {
    @Test(arguments: [SIGKILL, SIGSEGV])
    func nothingOutlivesATestProcessThatDies(signal: Int32) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let probe = try Spawn(
            try #require(Products.executable("routereg-orphan-probe")).path,
            [try #require(Products.executable("routereg")).path, scratch.path],
            // Swift's backtracer would first spend seconds symbolicating the crash; the process dies all the same.
            environment: Spawn.currentEnvironment().merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 },
            standardError: .standardOutput
        ).start()
        defer { probe.kill() }

        let deadline = ContinuousClock.now + .seconds(120)
        while !probe.standardOutput.contains("ready\n") {
            guard probe.isRunning, ContinuousClock.now < deadline else {
                Issue.record("the probe did not get ready: \(probe.standardOutput)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let started = Self.fields(probe.standardOutput)
        let server = try #require(started["routereg"].flatMap { Int32($0) })
        let postmaster = try #require(started["postgres"].flatMap { Int32($0) })
        let cluster = try #require(started["cluster"])
        #expect(Self.isAlive(server) && Self.isAlive(postmaster))

        kill(probe.pid, signal)  // The probe alone, as a crash would end it: its group is the reaper's job.
        let status = await probe.exit(timeout: .seconds(30))
        #expect(status == 128 + signal)

        let killed = ContinuousClock.now
        #expect(await Self.waitUntilGone(server), "routereg serve (\(server)) outlived the test process")
        #expect(await Self.waitUntilGone(postmaster), "PostgreSQL (\(postmaster)) outlived the test process")
        let within = ContinuousClock.now - killed
        var removed = false
        for _ in 0..<200 where !removed {
            removed = !FileManager.default.fileExists(atPath: cluster)
            if !removed { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(removed, "the cluster directory \(cluster) was left behind")
        print("orphans: after \(signal == SIGKILL ? "SIGKILL" : "SIGSEGV"), server and database gone in \(within)")
    }

    /// `key value` lines.
    static func fields(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// Alive and not a zombie.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return !status.contains("State:\tZ")
    }

    static func waitUntilGone(_ pid: Int32) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if !isAlive(pid) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
