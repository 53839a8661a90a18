import RouteCore
import Testing

@testable import routereg

@Suite("Route flags")
struct RouteFlagsTests {
    let spec = CommandTable.standard.command(["route", "update"])!

    func route(_ tokens: [String], from start: Route? = nil) throws -> Route {
        let parsed = try ArgumentParser.parse(
            ["badoo", "r"] + tokens, flags: spec.flags + CommandTable.globalFlags, positionals: spec.positionals,
            command: spec.displayName)
        var route = start ?? Route(id: "r", pattern: URLPattern(path: "/l/a/*"))
        try RouteFlags.apply(parsed, to: &route)
        return route
    }

    @Test func sinceAndUntilPerPlatform() throws {
        let route = try route(["--since", "ios=5.12.0", "--since", "android=51200", "--until", "ios=6.0"])
        #expect(route.platforms[.ios] == VersionRange(since: try Version("5.12.0"), until: try Version("6.0")))
        #expect(route.platforms[.android] == VersionRange(since: try Version("51200")))
        let reopened = try self.route(["--until", "ios=none"], from: route)
        #expect(reopened.platforms[.ios]?.until == nil)
        #expect(try self.route(["--drop-platform", "android"], from: route).platforms[.android] == nil)
    }

    @Test func queryItemsOrAWholeQueryString() throws {
        #expect(try route(["--query", "ref=*", "--query", "id=?*"]).pattern.query == .items(["ref": "*", "id": "?*"]))
        #expect(try route(["--query", "a*b"]).pattern.query == .string("a*b"))
        #expect(try route(["--clear-query"], from: route(["--query", "x"])).pattern.query == nil)
    }

    @Test func patternOptionsCommentAndDomains() throws {
        let route = try route([
            "--fragment", "top", "--case-insensitive", "--percent-decoded", "--comment", "why", "--domain", "a.com",
            "--domain", "b.com",
        ])
        #expect(
            route.pattern == URLPattern(path: "/l/a/*", fragment: "top", caseSensitive: false, percentEncoded: false))
        #expect(route.comment == "why" && route.domains == ["a.com", "b.com"])
        #expect(try self.route(["--all-domains"], from: route).domains.isEmpty)
    }

    @Test func excludeRoutesHaveNoVersions() throws {
        let open = try route(["--since", "ios=5.0"])
        let excluded = try route(["--exclude"], from: open)
        #expect(excluded.action == .exclude && excluded.platforms.isEmpty)
        #expect(
            throws: UsageError(
                "--since/--until: an exclude route has no version range (links always go to the browser)")
        ) {
            try route(["--exclude", "--since", "ios=5.0"])
        }
    }

    @Test(arguments: [
        (["--until", "ios=6.0"], "--until ios needs --since ios=VERSION"),
        (["--since", "ios"], "--since: expected PLATFORM=VERSION (ios=5.12.0), got \"ios\""),
        (["--since", "web=1"], "--since: \"web\" is not a platform (ios or android)"),
        (["--since", "ios=1", "--since", "ios=2"], "--since: ios given more than once"),
        (["--since", "ios=5.x"], "--since ios: version \"5.x\" must be 1 to 4 dot-separated numbers, like 5.12.0"),
        (["--query", "a=1", "--query", "a=2"], "--query: item \"a\" given more than once"),
        (["--exclude", "--open"], "--exclude and --open contradict each other"),
    ])
    func mistakesAreUsageErrors(tokens: [String], message: String) {
        #expect(throws: UsageError(message)) { try route(tokens) }
    }
}
