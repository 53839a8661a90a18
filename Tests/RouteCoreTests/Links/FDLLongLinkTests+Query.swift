import Testing

@testable import RouteCore

/// The long link's query as served again (`og:url`): the parameters read, re-encoded, the social preview left out
/// unless asked for, and read back to the same values.
@Suite struct FDLLongLinkQueryTests {
    static let stranger =
        "link=https%3A%2F%2Fm.badoo.com%2Fu%2F42&st=Security+alert%3A+verify&sd=Sign%20in&si=https%3A%2F%2Fattacker.example%2Fl.png"
        + "&ifl=https%3A%2F%2Fm.badoo.com%2Fios&utm_source=x&efr=1"

    @Test func theQueryLeavesThePreviewOutUnlessAskedFor() throws {
        let link = try #require(FDLLongLink(query: Self.stranger))
        let without = link.query(includingPreview: false)
        #expect(without == "link=https%3A%2F%2Fm.badoo.com%2Fu%2F42&ifl=https%3A%2F%2Fm.badoo.com%2Fios&efr=1")
        #expect(!without.contains("attacker") && !without.contains("Security"))
        let with = link.query(includingPreview: true)
        #expect(
            with.contains("&st=Security%20alert%3A%20verify&sd=Sign%20in&si=https%3A%2F%2Fattacker.example%2Fl.png"))
    }

    @Test(arguments: [
        "link=https%3A%2F%2Fm.badoo.com%2Fa%3Fb%3Dc%26d%3De%2Bf&st=caf%C3%A9+%26+%3Cb%3E&apn=com.badoo.mobile",
        "link=https%3A%2F%2Fm.badoo.com%2F%F0%9F%8E%89&sd=%25%2B%3D%23",
    ])
    func theQueryReadsBackToTheSameLink(_ query: String) throws {
        let link = try #require(FDLLongLink(query: query))
        #expect(FDLLongLink(query: link.query(includingPreview: true)) == link)
        var bare = link
        (bare.st, bare.sd, bare.si) = (nil, nil, nil)
        #expect(FDLLongLink(query: link.query(includingPreview: false)) == bare)
    }
}
