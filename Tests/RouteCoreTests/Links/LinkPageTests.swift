import Foundation
import Testing

@testable import RouteCore

/// The link pages: every value escaped, the crawler tags exact, the landing page's buttons, no script, no inline
/// style attribute, and a CSP whose style hash is the hash of the page's one style block.
@Suite struct LinkPageTests {
    static let plain = LinkPageContent(
        shortURL: "https://l.badoo.com/Ab3x", title: "Meet Anna", description: "Anna likes hiking & chess",
        imageURL: "https://img.badoo.com/p/1.jpg", appName: "Badoo", openURL: "https://badoo.com/profile/1",
        storeURL: "https://apps.apple.com/app/id351331194?ct=link&mt=8",
        webURL: "https://badoo.com/profile/1?fallback=1&from=link")

    /// Injection attempts, each tried in every field at once.
    static let payloads = [
        "\"><script>alert(1)</script>",
        "' onmouseover=alert(1) x='",
        "\" onmouseover=\"alert(1)",
        "</title><script>alert(1)</script>",
        "</style><img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "https://evil.example/\"><svg onload=alert(1)>",
        "&lt;script&gt;",
    ]

    static func everywhere(_ payload: String) -> LinkPageContent {
        LinkPageContent(
            shortURL: payload, title: payload, description: payload, imageURL: payload, appName: payload,
            openURL: payload, storeURL: payload, webURL: payload)
    }

    static func html(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func pages(_ content: LinkPageContent) -> [String] {
        [
            html(LinkPage.crawler(content)), html(LinkPage.landing(content)),
            html(LinkPage.notFound(appName: content.appName)),
        ]
    }

    // MARK: Escaping

    @Test(arguments: [
        ("", ""),
        ("plain text", "plain text"),
        ("a & b", "a &amp; b"),
        ("<b>", "&lt;b&gt;"),
        ("\"quoted\"", "&quot;quoted&quot;"),
        ("it's", "it&#39;s"),
        ("&amp;", "&amp;amp;"),
        ("héllo 日本 🎉 <", "héllo 日本 🎉 &lt;"),
    ])
    func escapes(_ text: String, _ expected: String) {
        #expect(LinkPage.escape(text) == expected)
    }

    /// A payload in every field: no tag or attribute but ours, and the payload appears only escaped.
    @Test(arguments: payloads)
    func everyValueIsEscaped(_ payload: String) throws {
        for page in Self.pages(Self.everywhere(payload)) {
            #expect(!page.lowercased().contains("<script"))
            #expect(!page.lowercased().contains("<svg"))
            if payload.contains(where: { "<>\"'&".contains($0) }) { #expect(!page.contains(payload)) }
            let tags = try HTMLTags.scan(page)
            for tag in tags {
                #expect(HTMLTags.allowedElements.contains(tag.name), "element \(tag.name) in \(page)")
                for attribute in tag.attributes {
                    #expect(HTMLTags.allowedAttributes.contains(attribute), "attribute \(attribute) in \(page)")
                }
            }
        }
    }

    // MARK: Crawler page

    @Test(arguments: payloads + ["Meet Anna"])
    func crawlerPageCarriesEachTagWithTheExactEscapedValue(_ value: String) {
        let content = LinkPageContent(
            shortURL: "https://l.example/" + value, title: value, description: "about " + value,
            imageURL: "https://img.example/" + value, appName: "App " + value, openURL: "https://example.com/")
        let page = Self.html(LinkPage.crawler(content))
        let e = LinkPage.escape
        for (attribute, key, expected) in [
            ("property", "og:title", value), ("property", "og:description", "about " + value),
            ("property", "og:image", "https://img.example/" + value),
            ("property", "og:url", "https://l.example/" + value),
            ("property", "og:type", "website"), ("property", "og:site_name", "App " + value),
            ("name", "twitter:card", "summary_large_image"), ("name", "twitter:title", value),
            ("name", "twitter:description", "about " + value),
            ("name", "twitter:image", "https://img.example/" + value),
        ] {
            #expect(page.contains("<meta \(attribute)=\"\(key)\" content=\"\(e(expected))\">"), "\(key) in \(page)")
        }
        #expect(page.contains("<title>\(e(value))</title>"))
    }

    @Test func crawlerPageWithoutImageOrTitle() {
        let content = LinkPageContent(
            shortURL: "https://l.example/x", appName: "Badoo", openURL: "https://badoo.com/")
        let page = Self.html(LinkPage.crawler(content))
        #expect(page.contains("<meta name=\"twitter:card\" content=\"summary\">"))
        #expect(page.contains("<meta property=\"og:title\" content=\"Badoo\">"))
        #expect(!page.contains("og:image") && !page.contains("twitter:image"))
        #expect(!page.contains("og:description") && !page.contains("twitter:description"))
    }

    @Test func crawlerPageHasNoScriptStyleOrLinksOut() {
        let page = Self.html(LinkPage.crawler(Self.plain))
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("<style") && !page.contains("style="))
        #expect(!page.contains("<a "))
        #expect(!page.contains(Self.plain.openURL))
    }

    // MARK: Landing page

    @Test func landingPageHasEveryButton() {
        let page = Self.html(LinkPage.landing(Self.plain))
        let e = LinkPage.escape
        #expect(page.contains("<a href=\"\(e(Self.plain.openURL))\">Open in Badoo</a>"))
        #expect(page.contains("<a href=\"\(e(Self.plain.storeURL!))\">Get Badoo</a>"))
        #expect(page.contains("<a href=\"\(e(Self.plain.webURL!))\">Continue on the web</a>"))
        #expect(page.contains("href=\"https://badoo.com/profile/1?fallback=1&amp;from=link\""))
        #expect(page.contains("<img src=\"https://img.badoo.com/p/1.jpg\" alt=\"\" referrerpolicy=\"no-referrer\">"))
        #expect(page.contains("<h1>Meet Anna</h1>"))
        #expect(page.contains("<p>Anna likes hiking &amp; chess</p>"))
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(page.contains("<meta name=\"referrer\" content=\"no-referrer\">"))
    }

    @Test func landingPageLeavesOutMissingButtons() {
        var content = Self.plain
        content.storeURL = nil
        content.webURL = nil
        let page = Self.html(LinkPage.landing(content))
        #expect(page.components(separatedBy: "<a ").count == 2)
        #expect(page.contains("Open in Badoo"))
        #expect(!page.contains("Get Badoo") && !page.contains("Continue on the web"))
    }

    @Test(arguments: ["http://img.example/a.jpg", "data:image/png;base64,AAAA", "javascript:alert(1)", "//img/x"])
    func landingPageShowsOnlyHTTPSImages(_ image: String) {
        var content = Self.plain
        content.imageURL = image
        #expect(!Self.html(LinkPage.landing(content)).contains("<img"))
    }

    @Test func landingPageHasNoScriptAndNoStyleAttribute() {
        for content in [Self.plain] + Self.payloads.map(Self.everywhere) {
            let page = Self.html(LinkPage.landing(content)).lowercased()
            #expect(!page.contains("<script"))
            #expect(!page.contains("style="))
        }
    }

    /// A scriptable URL never becomes a button, however the scheme is spelt.
    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " \u{1}javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
    ])
    func scriptableURLsAreNotLinked(_ url: String) {
        #expect(LinkPage.isScriptable(url))
        let content = LinkPageContent(
            shortURL: "https://l.example/x", appName: "App", openURL: url, storeURL: url, webURL: url)
        let page = Self.html(LinkPage.landing(content))
        #expect(!page.contains("<a "))
        #expect(!page.lowercased().contains("script:"))
    }

    @Test(arguments: [
        "https://badoo.com/x", "badoo://profile/1", "intent://x#Intent;end", "javascript", "/relative:path",
        "https://example.com/javascript:x", "",
    ])
    func otherURLsAreLinked(_ url: String) {
        #expect(!LinkPage.isScriptable(url))
    }

    // MARK: Not found

    @Test func notFoundLinksNowhere() {
        for appName in [nil, "", "Badoo", "\"><script>alert(1)</script>"] {
            let page = Self.html(LinkPage.notFound(appName: appName))
            #expect(page.contains("<h1>Link not found</h1>"))
            #expect(!page.contains("<a") && !page.contains("href") && !page.contains("http-equiv"))
            #expect(!page.lowercased().contains("<script"))
            #expect(!page.contains("<img"))
        }
        #expect(Self.html(LinkPage.notFound(appName: "Badoo")).contains("new Badoo link"))
    }

    // MARK: Content-Security-Policy

    @Test func cspIsStrict() {
        let csp = LinkPage.contentSecurityPolicy
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval") && !csp.contains("unsafe-hashes"))
        #expect(!csp.contains("script-src"))
        #expect(!csp.contains("*"))
        for directive in [
            "default-src 'none'", "img-src https:", "style-src \(LinkPage.styleHash)", "base-uri 'none'",
            "form-action 'none'", "frame-ancestors 'none'",
        ] {
            #expect(csp.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains(directive))
        }
    }

    /// The hash in the CSP is SHA-256 of exactly the text of the page's `<style>` block, recomputed here.
    @Test func styleHashMatchesTheStyleBlock() throws {
        for page in [Self.html(LinkPage.landing(Self.plain)), Self.html(LinkPage.notFound(appName: "Badoo"))] {
            let parts = page.components(separatedBy: "<style>")
            try #require(parts.count == 2)
            let block = try #require(parts[1].components(separatedBy: "</style>").first)
            #expect(block == LinkPage.styleSheet)
            let hash = "'sha256-" + Data(SHA256.digest(Array(block.utf8))).base64EncodedString() + "'"
            #expect(hash == LinkPage.styleHash)
            #expect(LinkPage.contentSecurityPolicy.contains("style-src \(hash)"))
        }
        #expect(!LinkPage.styleSheet.contains("<"))
    }
}

/// A minimal scanner of HTML start tags (name and attribute names, quoted values skipped), enough to prove
/// that no value broke out of its attribute or text: every `<` in the pages must open one of our tags.
enum HTMLTags {
    struct Tag { var name: String; var attributes: [String] }
    struct Malformed: Error { var at: Int }

    static let allowedElements: Set<String> = [
        "!doctype", "html", "head", "meta", "title", "link", "style", "body", "main", "nav", "h1", "p", "a", "img",
    ]
    static let allowedAttributes: Set<String> = [
        "html", "lang", "charset", "name", "content", "property", "rel", "href", "src", "alt", "referrerpolicy",
    ]

    static func scan(_ html: String) throws -> [Tag] {
        let s = Array(html.utf8)
        var tags: [Tag] = []
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == 0x0C }
        while i < s.count {
            guard s[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            i += 1
            if i < s.count && s[i] == UInt8(ascii: "/") {  // an end tag: skip to '>'
                while i < s.count && s[i] != UInt8(ascii: ">") { i += 1 }
                continue
            }
            var name = [UInt8]()
            while i < s.count && !isSpace(s[i]) && s[i] != UInt8(ascii: ">") {
                name.append(s[i] | (s[i] >= 0x41 && s[i] <= 0x5A ? 0x20 : 0))
                i += 1
            }
            var tag = Tag(name: String(decoding: name, as: UTF8.self), attributes: [])
            while i < s.count && s[i] != UInt8(ascii: ">") {
                if isSpace(s[i]) {
                    i += 1
                    continue
                }
                var attribute = [UInt8]()
                while i < s.count && !isSpace(s[i]) && s[i] != UInt8(ascii: "=") && s[i] != UInt8(ascii: ">") {
                    attribute.append(s[i])
                    i += 1
                }
                tag.attributes.append(String(decoding: attribute, as: UTF8.self).lowercased())
                if i < s.count && s[i] == UInt8(ascii: "=") {
                    i += 1
                    guard i < s.count, s[i] == UInt8(ascii: "\"") else { throw Malformed(at: i) }  // we always quote
                    i += 1
                    while i < s.count && s[i] != UInt8(ascii: "\"") { i += 1 }
                    i += 1
                }
            }
            i += 1
            tags.append(tag)
            // Raw text elements: skip to their end tag, as a browser does.
            if tag.name == "style" || tag.name == "title" {
                let end = Array("</\(tag.name)>".utf8)
                while i + end.count <= s.count && Array(s[i..<i + end.count]) != end { i += 1 }
            }
        }
        return tags
    }
}
