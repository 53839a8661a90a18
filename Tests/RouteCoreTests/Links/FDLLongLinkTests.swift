import Testing

@testable import RouteCore

@Suite struct FDLLongLinkTests {
    /// The query of a long link as FDL's builders wrote them: everything after the first `?`.
    static func query(of longLink: String) -> String {
        longLink.firstIndex(of: "?").map { String(longLink[longLink.index(after: $0)...]) } ?? ""
    }

    @Test func readsEveryParameterOfAFullLongLink() throws {
        let longLink =
            "https://badoo.page.link/?link=https%3A%2F%2Fm.badoo.com%2Foffer%2F42%3Futm_source%3Dshare%26ref%3Da%2Bb"
            + "&apn=com.badoo.mobile&amv=5120&afl=https%3A%2F%2Fm.badoo.com%2Fandroid"
            + "&ibi=com.badoo.Badoo&isi=351331194&imv=6.12.0&ifl=https%3A%2F%2Fm.badoo.com%2Fios"
            + "&ofl=https%3A%2F%2Fbadoo.com%2Foffer%2F42"
            + "&st=Summer+offer%21&sd=50%25+off+for+caf%C3%A9+lovers&si=https%3A%2F%2Fbadoo.com%2Fog%2F42.png"
            + "&efr=1&utm_campaign=summer&ius=badoo"
        let link = try #require(FDLLongLink(query: Self.query(of: longLink)))
        #expect(link.link == "https://m.badoo.com/offer/42?utm_source=share&ref=a+b")
        #expect(link.apn == "com.badoo.mobile")
        #expect(link.amv == "5120")
        #expect(link.afl == "https://m.badoo.com/android")
        #expect(link.ibi == "com.badoo.Badoo")
        #expect(link.isi == "351331194")
        #expect(link.imv == "6.12.0")
        #expect(link.ifl == "https://m.badoo.com/ios")
        #expect(link.ofl == "https://badoo.com/offer/42")
        #expect(link.st == "Summer offer!")
        #expect(link.sd == "50% off for café lovers")
        #expect(link.si == "https://badoo.com/og/42.png")
        #expect(link.efr)
    }

    @Test func leavesMissingOptionalsNil() throws {
        let link = try #require(FDLLongLink(query: "link=https://m.badoo.com/x&apn=com.badoo.mobile"))
        #expect(link.link == "https://m.badoo.com/x")
        #expect(link.apn == "com.badoo.mobile")
        #expect(
            [link.isi, link.ibi, link.imv, link.amv, link.afl, link.ifl, link.ofl, link.st, link.sd, link.si]
                .allSatisfy { $0 == nil })
        #expect(!link.efr)
    }

    @Test func acceptsALeadingQuestionMark() throws {
        #expect(try #require(FDLLongLink(query: "?link=https%3A%2F%2Fm.badoo.com")).link == "https://m.badoo.com")
    }

    @Test(arguments: ["1"])
    func efrIsTrueOnlyForOne(_ value: String) throws {
        #expect(try #require(FDLLongLink(query: "link=x&efr=\(value)")).efr)
    }

    @Test(arguments: ["0", "true", "yes", "", "2", "%31%31"])
    func efrIsFalseOtherwise(_ value: String) throws {
        #expect(try !#require(FDLLongLink(query: "link=x&efr=\(value)")).efr)
    }

    @Test func plusIsASpaceAndEncodedPlusIsAPlus() throws {
        let link = try #require(FDLLongLink(query: "link=https://m.badoo.com/?q=a%2Bb+c&st=a+b%20c%2B"))
        #expect(link.link == "https://m.badoo.com/?q=a+b c")
        #expect(link.st == "a b c+")
    }

    @Test func firstOccurrenceWins() throws {
        let query =
            "link=https%3A%2F%2Fm.badoo.com%2Fa&link=https%3A%2F%2Fevil.example"
            + "&ifl=first&ifl=second&efr=0&efr=1"
        let link = try #require(FDLLongLink(query: query))
        #expect(link.link == "https://m.badoo.com/a")
        #expect(link.ifl == "first")
        #expect(!link.efr)
    }

    @Test func anEmptyOrBrokenFirstOccurrenceIsNotFilledInByALaterOne() throws {
        let link = try #require(
            FDLLongLink(query: "link=x&ifl=&ifl=https://evil.example&afl=%zz&afl=https://evil.example"))
        #expect(link.ifl == nil)
        #expect(link.afl == nil)
        #expect(FDLLongLink(query: "link=%zz&link=https://m.badoo.com") == nil)
        #expect(FDLLongLink(query: "link=&link=https://m.badoo.com") == nil)
    }

    @Test func decodesNamesAsFormsDo() throws {
        let link = try #require(FDLLongLink(query: "%6Cink=https://m.badoo.com&%61pn=com.badoo.mobile"))
        #expect(link.link == "https://m.badoo.com")
        #expect(link.apn == "com.badoo.mobile")
    }

    @Test func ignoresUnknownParametersAndEmptyPairs() throws {
        let link = try #require(
            FDLLongLink(query: "&&utm_source=x&LINK=https://evil.example&link=https://m.badoo.com&&ipfl=y&="))
        #expect(link.link == "https://m.badoo.com")
        #expect(link == FDLLongLink(query: "link=https://m.badoo.com"))
    }

    @Test func splitsOnlyOnAmpersandAndTheFirstEquals() throws {
        let link = try #require(FDLLongLink(query: "link=https://m.badoo.com/?a=1;apn=evil&sd=x=y"))
        #expect(link.link == "https://m.badoo.com/?a=1;apn=evil")
        #expect(link.apn == nil)
        #expect(link.sd == "x=y")
    }

    @Test(arguments: [
        "",
        "?",
        "apn=com.badoo.mobile&ibi=com.badoo.Badoo",
        "link",
        "link=",
        "link=%",
        "link=%4",
        "link=%zz",
        "link=https%3A%2F%2Fm.badoo.com%2",
        "link=%C3%28",
        "link=%FF%FE",
        "link=%ED%A0%80",
        "links=https://m.badoo.com",
        "li%6Ek%=https://m.badoo.com",
    ])
    func refusesLinksWithoutADecodableLink(_ query: String) {
        #expect(FDLLongLink(query: query) == nil)
    }

    @Test func keepsDecodedTextForTheGuardToJudge() throws {
        // Decoding is not validation: the guard refuses this target, the parser only reads it.
        let link = try #require(FDLLongLink(query: "link=javascript%3Aalert(1)%0A&ifl=https%3A%2F%2Fevil.example"))
        #expect(link.link == "javascript:alert(1)\n")
        let destinations = LinkDestinations(appHosts: ["m.badoo.com"])
        #expect(throws: RegistryError.self) { try destinations.check(link.link ?? "", field: "link.link") }
        #expect(throws: RegistryError.self) { try destinations.check(link.ifl ?? "", field: "link.ios.fallbackUrl") }
    }
}
