import Foundation
import RouteCore
import Testing

@testable import routereg

/// Reading other shorteners' exports without a server: RFC 4180 quoting, format detection (and refusing to
/// guess), codes from short URLs, the campaign taken off the long URL, expiry normalised, and the request id
/// stable for the same links and different for others.
@Suite struct LinkImportFormatTests {
    @Test func csvQuotingFollowsRFC4180() throws {
        let rows = try LinkImport.csvRows("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n\nlast,,\n")
        #expect(rows.map(\.fields) == [["a", "b", "c"], ["x, y", #"say "hi""#, "two\nlines"], ["last", "", ""]])
        #expect(rows.map(\.line) == [1, 2, 5])
        #expect(throws: CommandFailure.self) { try LinkImport.csvRows("a,\"open\n") }
    }

    @Test(arguments: [
        ("link,long_url,title\nhttps://bit.ly/a,https://x.test/,T\n", LinkImport.Format.bitly),
        ("shortCode,longUrl\nab,https://x.test/\n", .shlink),
        ("link,long_url\n,https://x.test/\n", .bitly),
        ("keyword,url,title\nab,https://x.test/,T\n", .yourls),
        ("https://a.page.link/x,https://a.page.link/?link=https%3A%2F%2Fx.test%2F\n", .fdl),
        (#"[{"address": "ab", "target": "https://x.test/"}]"#, .kutt),
        (#"{"shortUrls": [{"shortCode": "ab", "longUrl": "https://x.test/"}]}"#, .shlink),
        (#"{"links": {"link_1": {"shorturl": "https://y.test/ab", "url": "https://x.test/"}}}"#, .yourls),
    ])
    func formatsAreDetected(text: String, format: LinkImport.Format) throws {
        let records = try LinkImport.records(Data(text.utf8))
        #expect(try LinkImport.format(of: records, given: nil) == format)
    }

    @Test func ambiguousOrUnknownFilesNeedFrom() throws {
        let both = try LinkImport.records(
            Data(#"[{"link": "https://bit.ly/a", "longUrl": "https://x.test/", "shortCode": "a"}]"#.utf8))
        #expect(throws: CommandFailure.self) { try LinkImport.format(of: both, given: nil) }
        #expect(try LinkImport.format(of: both, given: "shlink") == .shlink)
        let unknown = try LinkImport.records(Data(#"[{"name": "a"}]"#.utf8))
        #expect(throws: CommandFailure.self) { try LinkImport.format(of: unknown, given: nil) }
        #expect(throws: UsageError.self) { try LinkImport.format(of: unknown, given: "tinyurl") }
    }

    @Test func codesCampaignsAndExpiry() throws {
        #expect(LinkImport.code(of: "https://bit.ly/3xYz") == "3xYz")
        #expect(LinkImport.code(of: "bit.ly/summer") == "summer")
        #expect(LinkImport.code(of: "kt1") == "kt1")
        let (target, utm) = LinkImport.campaignSplit("https://x.test/a?b=1&utm_source=news&utm_term=a%20b#f")
        #expect(target == "https://x.test/a?b=1#f")
        #expect(utm == LinkCampaign(source: "news", term: "a b"))
        #expect(LinkImport.campaignSplit("https://x.test/a?b=1").1 == nil)
        #expect(try LinkImport.timestamp("2099-06-30T12:00:00+02:00", at: "line 2") == "2099-06-30T10:00:00Z")
        #expect(try LinkImport.timestamp("2099-01-01T00:00:00.000Z", at: "line 2") == "2099-01-01T00:00:00Z")
        #expect(throws: CommandFailure.self) { try LinkImport.timestamp("2 hours", at: "line 2") }
    }

    @Test func theRequestIDFollowsTheLinks() throws {
        let links = [ShortLink(domain: "", code: "a", target: "https://x.test/")]
        let id = try LinkImport.requestID(app: "badoo", links: links)
        #expect(id.range(of: "^import-[0-9a-f]{40}$", options: .regularExpression) != nil)
        #expect(try LinkImport.requestID(app: "badoo", links: links) == id)
        #expect(try LinkImport.requestID(app: "other", links: links) != id)
        var changed = links
        changed[0].target = "https://x.test/b"
        #expect(try LinkImport.requestID(app: "badoo", links: changed) != id)
    }
}
