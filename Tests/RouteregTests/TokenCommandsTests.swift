import Foundation
import RegistryTesting
import Testing

/// `routereg token create … --apps --expires-in|--expires-at` and `token list` through the built binary
/// against a real server: the secret on the last line, the scope and expiry shown, and the list's role,
/// apps, expiry and last use columns.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct TokenCommandsTests {
    @Test func scopedExpiringTokensFromTheCommandLine() async throws {
        let server = try TestRegistryServer(suite: "routereg_tokens")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        for app in ["alpha", "beta"] {
            try await session.ok(["app", "create", app, "--ios-app-id", "ABCDE12345.com.example.\(app)"])
        }
        let created = try await session.ok([
            "token", "create", "alpha-ci", "--role", "releaser", "--apps", "alpha", "--expires-in", "90d",
        ])
        let lines = created.split(separator: "\n").map(String.init)
        let secret = try #require(lines.last)
        #expect(secret.hasPrefix("rr_") && secret.count == 67, "\(created)")
        #expect(created.contains("(releaser, apps alpha, expires 20"), "\(created)")
        let expiry = try #require(
            created.firstRange(of: #/expires (\S+)\)/#).map { String(created[$0]).dropFirst(8).dropLast() })
        let days = try Date(String(expiry), strategy: .iso8601).timeIntervalSinceNow / 86_400
        #expect(days > 89.9 && days < 90.1, "\(expiry)")

        // The token works for alpha only, and its use shows in the list.
        let asAlpha = ["ROUTEREG_TOKEN": secret]
        let own = try await session.run(
            ["route", "add", "alpha", "profile", "/u/*", "--since", "ios=1.0"], environment: asAlpha)
        #expect(own.status == 0, "\(own.stderr)")
        let other = try await session.run(
            ["route", "add", "beta", "profile", "/u/*", "--since", "ios=1.0"], environment: asAlpha)
        #expect(other.status != 0)
        #expect(other.stderr.contains("apps/beta"), "\(other.stderr)")

        try await session.ok(["token", "create", "dashboard", "--expires-at", "2099-12-31"])
        let listed = try await session.ok(["token", "list"])
        let header = try #require(listed.split(separator: "\n").first)
        for column in ["role", "apps", "expires", "last used", "state"] {
            #expect(header.contains(column.uppercased()), "\(listed)")
        }
        let alphaRow = try #require(listed.split(separator: "\n").first { $0.contains("alpha-ci") })
        #expect(
            alphaRow.contains("releaser") && alphaRow.contains("alpha") && alphaRow.contains("just now"), "\(alphaRow)")
        let dashboardRow = try #require(listed.split(separator: "\n").first { $0.contains("dashboard") })
        #expect(dashboardRow.contains("all") && dashboardRow.contains("2099-12-31") && dashboardRow.contains("never"))

        // Usage errors name the flag.
        let both = try await session.run(["token", "create", "x", "--expires-in", "1d", "--expires-at", "2099-01-01"])
        #expect(both.status != 0 && both.stderr.contains("--expires-in"), "\(both.stderr)")
        let badDuration = try await session.run(["token", "create", "x", "--expires-in", "soon"])
        #expect(badDuration.status != 0 && badDuration.stderr.contains("12h, 90d or 4w"), "\(badDuration.stderr)")
    }
}
