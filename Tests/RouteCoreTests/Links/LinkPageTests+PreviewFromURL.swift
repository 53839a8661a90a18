import Foundation
import Testing

@testable import RouteCore

/// A preview that comes from the URL (a long link's `st`, `sd`, `si`) is marked as such on both pages, so the
/// company's domain never presents a stranger's words as its own; the registry's own previews are unmarked.
@Suite struct LinkPagePreviewFromURLTests {
    static let note = "Preview supplied by the link, not by Badoo"

    static func content(fromURL: Bool, description: String? = "Your account is locked") -> LinkPageContent {
        LinkPageContent(
            shortURL: "https://go.badoo.com/?link=x", title: "Security alert", description: description,
            imageURL: "https://m.badoo.com/i.png", appName: "Badoo", openURL: "https://m.badoo.com/u/42",
            previewFromURL: fromURL)
    }

    static func html(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theCrawlerCardSaysWhereItsWordsComeFrom() {
        let page = Self.html(LinkPage.crawler(Self.content(fromURL: true)))
        #expect(page.contains(#"<meta property="og:description" content="\#(Self.note): Your account is locked">"#))
        #expect(page.contains(#"<meta name="twitter:description" content="\#(Self.note): Your account is locked">"#))
        #expect(page.contains("<p>\(Self.note): Your account is locked</p>"))
        #expect(page.contains(#"<meta property="og:title" content="Security alert">"#))
    }

    @Test func aCardWithoutDescriptionStillCarriesTheNote() {
        let page = Self.html(LinkPage.crawler(Self.content(fromURL: true, description: nil)))
        #expect(page.contains(#"<meta property="og:description" content="\#(Self.note).">"#))
    }

    @Test func theLandingPageShowsTheNoteBesideTheTitle() {
        let page = Self.html(LinkPage.landing(Self.content(fromURL: true)))
        #expect(
            page.contains("<h1>Security alert</h1>\n<p>Your account is locked</p>\n<p><small>\(Self.note).</small></p>")
        )
    }

    @Test func theRegistrysOwnPreviewsAreUnmarked() {
        for bytes in [LinkPage.crawler(Self.content(fromURL: false)), LinkPage.landing(Self.content(fromURL: false))] {
            let page = Self.html(bytes)
            #expect(!page.contains("Preview supplied by the link"))
            #expect(page.contains("Your account is locked"))
        }
    }

    @Test func noPreviewNoNote() {
        let bare = LinkPageContent(
            shortURL: "https://go.badoo.com/?link=x", appName: "Badoo", openURL: "https://m.badoo.com/u/42",
            previewFromURL: true)
        for bytes in [LinkPage.crawler(bare), LinkPage.landing(bare)] {
            #expect(!Self.html(bytes).contains("Preview supplied by the link"))
        }
    }
}
