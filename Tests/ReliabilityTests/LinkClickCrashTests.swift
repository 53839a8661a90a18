import Foundation
import RegistryTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a crash can cost the click counts (RELIABILITY.md "Clicks on short links"): the real binary counts
/// clicks in memory and writes them every 2 s; killed with SIGKILL, it loses at most the clicks of the last
/// interval, never older ones.
@Suite("Click counts across a crash")
struct LinkClickCrashTests {
    private static func click(_ base: URL, _ code: String) async throws -> Int {
        var request = URLRequest(url: base.appendingPathComponent(code))
        request.setValue("go.crash.example", forHTTPHeaderField: "Host")
        // A crawler: answered 200 with the preview page, nothing to follow.
        request.setValue("Slackbot-LinkExpanding 1.0", forHTTPHeaderField: "User-Agent")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func aCrashLosesAtMostTheLastIntervalOfClicks() async throws {
        let database = try TestPostgres.makeDatabase(suite: "click_crash")
        defer { try? database.release() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("click-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await ServerProcess.start(databaseURL: database.url, dataDirectory: data)
        let client = RegistryClient(baseURL: first.baseURL)
        _ = try await client.result(
            "Apps.Create", ["app": ["id": "crash", "ios": ["appIds": ["ABCDE12345.com.x.Crash"]]]])
        _ = try await client.result("Domains.Create", ["domain": ["host": "www.crash.example", "apps": ["crash"]]])
        _ = try await client.result(
            "Domains.Create", ["domain": ["host": "go.crash.example", "apps": ["crash"], "links": true]])
        _ = try await client.result(
            "Links.Create", ["app": "crash", "link": ["code": "c", "target": "https://www.crash.example/x"]])
        for _ in 0..<5 { #expect(try await Self.click(first.baseURL, "c") == 200) }
        // Past the 2 s write interval (and a poll): the first five are in PostgreSQL.
        try await Task.sleep(for: .seconds(5))
        for _ in 0..<5 { #expect(try await Self.click(first.baseURL, "c") == 200) }
        let status = await first.killHard()
        #expect(status == 128 + SIGKILL)

        let second = try await ServerProcess.start(databaseURL: database.url, dataDirectory: data)
        defer { Task { await second.ensureStopped() } }
        let stats = try await RegistryClient(baseURL: second.baseURL).result(
            "Links.Stats", ["domain": "go.crash.example", "code": "c"])
        let total = try #require(stats["total"] as? Int)
        #expect(total >= 5, "clicks older than the write interval were lost: \(total)")
        #expect(total <= 10)
        await second.ensureStopped()
    }
}
