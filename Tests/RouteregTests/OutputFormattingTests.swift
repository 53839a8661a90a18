import Foundation
import RouteCore
import Testing

@testable import routereg

@Suite("Output formatting")
struct OutputFormattingTests {
    @Test func tablesAlignColumnsAndDropTrailingBlanks() {
        let text = TextTable.render(
            [["profile", "/u/*", ""], ["lookalikes", "/l/a/*", "5.12.0+"]], header: ["route", "pattern", "ios"])
        #expect(text == "ROUTE       PATTERN  IOS\nprofile     /u/*\nlookalikes  /l/a/*   5.12.0+")
    }

    @Test func paintingDoesNotDisturbAlignment() {
        let style = Style(enabled: true)
        let text = TextTable.render([["a", "x"], ["bbb", "y"]]) { _, column, cell in
            column == 0 ? style.red(cell) : cell
        }
        #expect(text == "\u{1B}[31ma  \u{1B}[0m  x\n\u{1B}[31mbbb\u{1B}[0m  y")
    }

    static let relativeCases: [(secondsAgo: Double, text: String)] = [
        (10, "just now"), (60, "1 minute ago"), (180, "3 minutes ago"), (7200, "2 hours ago"),
        (93600, "1 day ago"), (432000, "5 days ago"), (-180, "in 3 minutes"),
    ]

    @Test(arguments: relativeCases)
    func relativeTimes(secondsAgo: Double, text: String) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RelativeTime.describe(now.addingTimeInterval(-secondsAgo), now: now) == text)
    }

    @Test func timestampsParseWithAndWithoutFractions() {
        let now = RelativeTime.parse("2026-11-29T18:00:00Z")!
        #expect(RelativeTime.describe("2026-11-29T17:57:00.123Z", now: now) == "3 minutes ago")
        #expect(RelativeTime.describe("2026-09-01T00:00:00Z", now: now) == "2026-09-01")
        #expect(RelativeTime.describe("yesterday-ish", now: now) == "yesterday-ish")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Style(isTTY: true, environment: [:], noColorFlag: false).enabled)
        #expect(!Style(isTTY: false, environment: [:], noColorFlag: false).enabled)
        #expect(!Style(isTTY: true, environment: ["NO_COLOR": "1"], noColorFlag: false).enabled)
        #expect(Style(isTTY: true, environment: ["NO_COLOR": ""], noColorFlag: false).enabled)
        #expect(!Style(isTTY: true, environment: ["TERM": "dumb"], noColorFlag: false).enabled)
        #expect(!Style(isTTY: true, environment: [:], noColorFlag: true).enabled)
        #expect(Style(enabled: false).red("x") == "x")
    }

    @Test func patternsAndRangesReadLikeAASA() throws {
        let pattern = URLPattern(
            path: "/l/a/*", query: .items(["ref": "?*", "a": "1"]), fragment: "top", caseSensitive: false)
        #expect(RouteText.pattern(pattern) == "/l/a/*?a=1&ref=?*#top (case-insensitive)")
        #expect(RouteText.pattern(URLPattern(scheme: "badoo", path: "/offer/*")) == "badoo:///offer/*")
        #expect(RouteText.range(VersionRange(since: try Version("5.12.0"))) == "5.12.0+")
        #expect(RouteText.range(VersionRange(since: try Version("5.0"), until: try Version("6.0"))) == "5.0–6.0")
    }

    @Test func documentETagsAreShortenedForPeople() {
        #expect(
            RouteText.shortETag("\"289a959d4eedbea235d1c7f92f496ebb0da3bc2f2dda7f920b247a0768bac17d\"")
                == "289a959d4eed…")
        #expect(RouteText.shortETag("\"e3\"") == "\"e3\"")
    }

    @Test func diffsPrintRemovedThenAddedPerApp() throws {
        let json = """
            {"added": [{"app": "T.b", "index": 2, "rule": {"/": "/l/a/*", "comment": "lookalikes"}}],
             "removed": [{"app": "T.b", "index": 1, "rule": {"/": "/old/*"}}],
             "changed": [{"before": {"app": "T.b", "index": 3, "rule": {"/": "/u/*"}},
                          "after": {"app": "T.b", "index": 3, "rule": {"/": "/u/*", "caseSensitive": false}}}]}
            """
        let diff = try JSONDecoder().decode(DocumentDiff.self, from: Data(json.utf8))
        #expect(
            DiffText.lines(diff, style: Style(enabled: false)) == [
                "@@ T.b @@", "- {\"/\":\"/old/*\"}", "+ {\"/\":\"/l/a/*\",\"comment\":\"lookalikes\"}",
                "- {\"/\":\"/u/*\"}", "+ {\"/\":\"/u/*\",\"caseSensitive\":false}",
            ])
    }
}
