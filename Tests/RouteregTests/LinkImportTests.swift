import Foundation
import RegistryTesting
import Testing

/// `routereg link import` of Bitly, Shlink, Kutt and YOURLS exports (hand-written fixtures in
/// `Tests/Fixtures/link-imports`) through the built binary against a real server: codes, titles, tags, expiry
/// and campaigns kept; the format detected; all or nothing (a target elsewhere or a bad code refused naming the
/// line, nothing created); and the same import run again a no-op.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct LinkImportTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/link-imports/\(name)").path
    }

    static func link(_ server: TestRegistryServer, _ code: String) async throws -> [String: Any] {
        try await server.result("Links.Get", ["domain": "go.badoo.com", "code": code])
    }

    static func exists(_ server: TestRegistryServer, _ code: String) async throws -> Bool {
        let answer = try await server.call("Links.Get", ["domain": "go.badoo.com", "code": code])
        return answer["error"] == nil
    }

    /// badoo with its web domain `m.badoo.com` and link domain `go.badoo.com`.
    static func seeded(_ server: TestRegistryServer) async throws -> ReleaseDayTests.Session {
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", "m.badoo.com", "--app", "badoo"])
        try await session.ok(["domain", "add", "go.badoo.com", "--app", "badoo", "--links"])
        return session
    }

    @Test func importsFromOtherShorteners() async throws {
        let server = try TestRegistryServer(suite: "routereg_link_import")
        defer { server.shutdown() }
        let session = try await Self.seeded(server)

        let bitly = try await session.ok(["link", "import", Self.fixture("bitly.csv"), "--app", "badoo"])
        #expect(bitly.contains("Imported 4 link(s) from bitly"), "\(bitly)")
        let spring = try await Self.link(server, "3xBit1")
        #expect(spring["target"] as? String == "https://m.badoo.com/u/101?ref=mail")
        #expect((spring["preview"] as? [String: Any])?["title"] as? String == "Spring, at last")
        #expect(spring["tags"] as? [String] == ["promo", "spring"])
        let utm = try #require(spring["utm"] as? [String: Any])
        #expect(utm["source"] as? String == "newsletter" && utm["campaign"] as? String == "spring")
        // Each custom back-half is a link of its own to the same place.
        #expect(try await Self.link(server, "spring-sale")["target"] as? String == "https://m.badoo.com/u/101?ref=mail")
        #expect(try await Self.exists(server, "spring24"))
        #expect(
            (try await Self.link(server, "3xBit2")["preview"] as? [String: Any])?["title"] as? String == #"Say "hi""#)

        let shlink = try await session.ok(["link", "import", Self.fixture("shlink.json"), "--app", "badoo"])
        #expect(shlink.contains("Imported 2 link(s) from shlink"), "\(shlink)")
        let winter = try await Self.link(server, "sh-one")
        #expect(winter["expiresAt"] as? String == "2099-06-30T10:00:00.000Z")
        #expect(winter["tags"] as? [String] == ["social", "winter-sale"])
        #expect((winter["utm"] as? [String: Any])?["medium"] as? String == "social")
        #expect(winter["target"] as? String == "https://m.badoo.com/u/201")
        #expect(winter["maxClicks"] as? Int == 500)
        try await session.ok(["link", "import", Self.fixture("shlink.csv"), "--app", "badoo", "--from", "shlink"])
        #expect(try await Self.link(server, "sh-csv")["tags"] as? [String] == ["a", "b"])

        try await session.ok(["link", "import", Self.fixture("kutt.json"), "--app", "badoo"])
        let kutt = try await Self.link(server, "kt1")
        #expect(kutt["expiresAt"] as? String == "2099-01-01T00:00:00.000Z")
        #expect((kutt["preview"] as? [String: Any])?["title"] as? String == "Kutt one")
        #expect(try await Self.exists(server, "kt2"))

        try await session.ok(["link", "import", Self.fixture("yourls.csv"), "--app", "badoo"])
        let yourls = try await Self.link(server, "yr2")
        #expect(yourls["target"] as? String == "https://m.badoo.com/u/402")
        #expect((yourls["utm"] as? [String: Any])?["content"] as? String == "b c")
        try await session.ok(["link", "import", Self.fixture("yourls-stats.json"), "--app", "badoo"])
        #expect((try await Self.link(server, "yrs2")["preview"] as? [String: Any])?["title"] as? String == "Stats two")

        // The same import again is a no-op, not ALREADY_EXISTS.
        let again = try await session.run(["link", "import", Self.fixture("bitly.csv"), "--app", "badoo"])
        #expect(again.status == 0, "\(again.stderr)")
        let listed = try await server.result("Links.List", ["app": "badoo", "pageSize": 100])
        let total = (listed["links"] as? [Any])?.count
        #expect(total == 13, "4 Bitly, 3 Shlink, 2 Kutt, 4 YOURLS")
        // A wrong --from is refused before anything is sent.
        let wrong = try await session.run([
            "link", "import", Self.fixture("kutt.json"), "--app", "badoo", "--from", "bitly",
        ])
        #expect(wrong.status != 0 && wrong.stderr.contains("entry 1: not a bitly record"), "\(wrong.stderr)")
    }

    @Test func aRefusedLineImportsNothing() async throws {
        let server = try TestRegistryServer(suite: "routereg_link_import_refused")
        defer { server.shutdown() }
        let session = try await Self.seeded(server)

        let elsewhere = try await session.run(["link", "import", Self.fixture("bitly-elsewhere.csv"), "--app", "badoo"])
        #expect(elsewhere.status != 0)
        #expect(elsewhere.stderr.contains("line 3 (code 3xEvil): target"), "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("nothing was imported"), "\(elsewhere.stderr)")
        #expect(try await !Self.exists(server, "3xOk1"), "a refused import created its first line")

        let badCode = try await session.run(["link", "import", Self.fixture("kutt-bad-code.json"), "--app", "badoo"])
        #expect(badCode.status != 0)
        #expect(badCode.stderr.contains("entry 2 (code bad code!): code"), "\(badCode.stderr)")
        #expect(try await !Self.exists(server, "good-one"))
    }

    @Test func aLargeExportGoesInWritesOfAThousandAndResumes() async throws {
        let server = try TestRegistryServer(suite: "routereg_link_import_large")
        defer { server.shutdown() }
        let session = try await Self.seeded(server)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func export(_ name: String, target: (Int) -> String, code: (Int) -> String = { "big\($0)" }) throws -> String {
            let file = directory.appendingPathComponent(name).path
            let lines = ["link,long_url"] + (0..<2_500).map { "https://bit.ly/\(code($0)),\(target($0))" }
            try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }

        // A code twice, on lines 6 and 1,501 (line 1 is the header): refused before anything is sent.
        let twice = try export(
            "twice.csv", target: { "https://m.badoo.com/u/\($0)" }, code: { $0 == 1_499 ? "big4" : "big\($0)" })
        let refusedTwice = try await session.run(["link", "import", twice, "--app", "badoo", "--from", "bitly"])
        #expect(refusedTwice.status != 0)
        #expect(
            refusedTwice.stderr.contains("line 1501 (code big4): code is already on line 6"), "\(refusedTwice.stderr)")
        #expect(try await !Self.exists(server, "big0"))

        // Line 2,202 points elsewhere: the two writes before its own stay, none from there on.
        let bad = try export(
            "bad.csv", target: { $0 == 2_200 ? "https://evil.example/x" : "https://m.badoo.com/u/\($0)" })
        let refused = try await session.run(["link", "import", bad, "--app", "badoo", "--from", "bitly"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("line 2202 (code big2200): target"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the 2000 link(s) before line 2002 were imported"), "\(refused.stderr)")
        #expect(try await Self.exists(server, "big1999"))
        #expect(try await !Self.exists(server, "big2000"))

        // Fixed, the same import goes on from there; run again, it creates nothing twice.
        let fixed = try export("fixed.csv", target: { "https://m.badoo.com/u/\($0)" })
        for _ in 0..<2 {
            let done = try await session.ok(["link", "import", fixed, "--app", "badoo", "--from", "bitly"])
            #expect(done.contains("Imported 2500 link(s) from bitly into badoo in 3 writes"), "\(done)")
        }
        #expect(try await Self.link(server, "big2499")["target"] as? String == "https://m.badoo.com/u/2499")
        let listed = try await server.result(
            "Links.List", ["app": "badoo", "text": "big", "pageSize": 1000])
        #expect((listed["links"] as? [Any])?.count == 1000 && (listed["nextPageToken"] as? String ?? "") != "")
    }
}
