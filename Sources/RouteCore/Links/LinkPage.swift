import Foundation

// The pages are built by string concatenation from a handful of fixed fragments, every variable part through
// `escape`, because the set is tiny and fixed: a template engine would be more code than the pages. There is no
// script anywhere, so the CSP can say `default-src 'none'`; the one inline <style> (the same for every page, the
// constant `styleSheet`) is allowed by its hash, computed from that constant, so the CSP cannot drift from it.

/// What a short link's pages show: the social preview, the app, and where each button goes.
public struct LinkPageContent: Sendable, Hashable {
    /// The canonical URL of the short link (`og:url`).
    public var shortURL: String
    /// The preview's title (FDL's `st`); the app's name stands in when nil.
    public var title: String?
    /// The preview's description (FDL's `sd`).
    public var description: String?
    /// The preview's image (FDL's `si`); the landing page shows it only when it is `https:`.
    public var imageURL: String?
    /// The app's name, shown on the landing page and as `og:site_name`.
    public var appName: String
    /// "Open in the app": the deep link target.
    public var openURL: String
    /// "Get the app": the App Store or Play Store URL (with campaign or referrer), nil if none.
    public var storeURL: String?
    /// "Continue on the web": the target with the fallback marker, or a fallback URL; nil if none.
    public var webURL: String?
    /// The preview (title, description, image) comes from the URL visited (a long link's `st`, `sd`, `si`), not
    /// from the app's registry: the pages say so (`previewNote`), so nobody takes a stranger's words for the
    /// company's.
    public var previewFromURL: Bool
    /// Shown above the buttons inside an iOS in-app browser, where tapping "Open in …" may not open the app
    /// (`LinkInAppBrowser.iosHint()`); nil elsewhere.
    public var inAppHint: String?

    /// Content for one short link; every string is escaped when a page is built, never before.
    public init(
        shortURL: String, title: String? = nil, description: String? = nil, imageURL: String? = nil,
        appName: String, openURL: String, storeURL: String? = nil, webURL: String? = nil, previewFromURL: Bool = false,
        inAppHint: String? = nil
    ) {
        self.shortURL = shortURL
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.appName = appName
        self.openURL = openURL
        self.storeURL = storeURL
        self.webURL = webURL
        self.previewFromURL = previewFromURL
        self.inAppHint = inAppHint
    }

    /// Whether the pages carry `LinkPage.previewNote`: a preview from the URL is shown.
    var showsNote: Bool { previewFromURL && (title != nil || description != nil || imageURL != nil) }

    /// The description as shown: with a preview from the URL, it starts with the note, so a card that shows
    /// only the description still says where its words come from.
    var shownDescription: String? {
        guard showsNote else { return description }
        let note = LinkPage.previewNote(appName: appName)
        return description.map { "\(note): \($0)" } ?? "\(note)."
    }
}

/// The HTML a link domain serves: a preview page for crawlers, a landing page for phones, a 404 page.
/// Pure functions returning UTF-8 bytes; the caller sends them with `contentSecurityPolicy` and
/// `Content-Type: text/html; charset=utf-8`.
public enum LinkPage {
    /// For crawlers: Open Graph and Twitter card tags and a minimal body; no script, no style, no links out.
    ///
    /// `og:title`/`twitter:title` fall back to the app's name; description and image tags are left out when
    /// nil; `twitter:card` is `summary_large_image` with an image, else `summary`.
    public static func crawler(_ content: LinkPageContent) -> [UInt8] {
        let title = content.title ?? content.appName
        let description = content.shownDescription
        var html = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<title>\(escape(title))</title>\n"
        html += meta(property: "og:title", title)
        if let description { html += meta(property: "og:description", description) }
        if let image = content.imageURL { html += meta(property: "og:image", image) }
        html += meta(property: "og:url", content.shortURL)
        html += meta(property: "og:type", "website")
        html += meta(property: "og:site_name", content.appName)
        html += meta(name: "twitter:card", content.imageURL == nil ? "summary" : "summary_large_image")
        html += meta(name: "twitter:title", title)
        if let description { html += meta(name: "twitter:description", description) }
        if let image = content.imageURL { html += meta(name: "twitter:image", image) }
        html += "<link rel=\"canonical\" href=\"\(escape(content.shortURL))\">\n"
        html += "</head>\n<body>\n<h1>\(escape(title))</h1>\n"
        if let description { html += "<p>\(escape(description))</p>\n" }
        html += "</body>\n</html>\n"
        return Array(html.utf8)
    }

    /// For phones: the preview and up to three buttons, "Open in {app}" (`openURL`), "Get {app}" (`storeURL`)
    /// and "Continue on the web" (`webURL`). Plain links, so it works without JavaScript; nothing is loaded
    /// from anywhere but the preview image (`https:` only, sent without a referrer), and the short code does
    /// not leak to the destinations (`<meta name="referrer" content="no-referrer">`).
    ///
    /// A button whose URL a browser would run as script (`javascript:`, `vbscript:`, `data:`, however spelt)
    /// is left out: URLs are validated before they get here, and this is the second line, behind the CSP.
    public static func landing(_ content: LinkPageContent) -> [UInt8] {
        let title = content.title ?? content.appName
        var html = head(title: title)
        html += "<body>\n<main>\n"
        if let image = content.imageURL, image.lowercased().hasPrefix("https://") {
            html += "<img src=\"\(escape(image))\" alt=\"\" referrerpolicy=\"no-referrer\">\n"
        }
        if content.title != nil { html += "<p>\(escape(content.appName))</p>\n" }
        html += "<h1>\(escape(title))</h1>\n"
        if let description = content.description { html += "<p>\(escape(description))</p>\n" }
        if content.showsNote { html += "<p><small>\(escape(previewNote(appName: content.appName))).</small></p>\n" }
        if let hint = content.inAppHint { html += "<p><strong>\(escape(hint))</strong></p>\n" }
        html += "<nav>\n"
        html += button(content.openURL, "Open in \(content.appName)")
        if let store = content.storeURL { html += button(store, "Get \(content.appName)") }
        if let web = content.webURL { html += button(web, "Continue on the web") }
        html += "</nav>\n</main>\n</body>\n</html>\n"
        return Array(html.utf8)
    }

    /// What a page says of a preview that came from the URL visited (`LinkPageContent.previewFromURL`).
    public static func previewNote(appName: String) -> String {
        "Preview supplied by the link, not by \(appName)"
    }

    /// The page for an unknown, expired or deleted code: says so, links nowhere, redirects nowhere.
    public static func notFound(appName: String?) -> [UInt8] {
        var html = head(title: "Link not found")
        html += "<body>\n<main>\n<h1>Link not found</h1>\n"
        html += "<p>This link does not exist, has expired or was removed.</p>\n"
        if let appName, !appName.isEmpty {
            html += "<p>Ask the person who sent it for a new \(escape(appName)) link.</p>\n"
        } else {
            html += "<p>Ask the person who sent it for a new link.</p>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        return Array(html.utf8)
    }

    /// The one inline style sheet of the landing and 404 pages, allowed by `styleHash`. Element selectors
    /// only, so the markup needs neither classes nor `style=` attributes.
    public static let styleSheet = """
        :root{color-scheme:light dark}\
        body{font:17px/1.5 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:30rem;padding:1.5rem}\
        img{display:block;max-width:100%;height:auto;border-radius:.75rem}\
        h1{font-size:1.5rem;line-height:1.25;margin:1rem 0 .5rem}\
        nav{margin-top:1.5rem}\
        nav a{display:block;margin:.75rem 0;padding:.9rem 1rem;border:2px solid #0a66d8;border-radius:.75rem;\
        color:#0a66d8;font-weight:600;text-align:center;text-decoration:none}\
        nav a:first-child{background:#0a66d8;color:#fff}
        """

    /// The CSP source that allows `styleSheet` inline: `'sha256-{base64 of SHA-256 of its UTF-8}'`, quotes
    /// included.
    public static let styleHash = "'sha256-\(Data(SHA256.digest(Array(styleSheet.utf8))).base64EncodedString())'"

    /// The Content-Security-Policy to send with every page here: nothing but the hashed style sheet and
    /// `https:` images; no script at all (so `javascript:` URLs cannot run either), no base, no forms, no
    /// framing.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src https:; style-src \(styleHash); base-uri 'none'; form-action 'none'; "
        + "frame-ancestors 'none'"

    /// Escapes `& < > " '` for HTML text and (double- or single-quoted) attribute values.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether a browser would run `url` as script when followed: its scheme read the way the WHATWG URL
    /// parser does (leading and trailing C0 controls and spaces stripped, tabs and newlines removed anywhere,
    /// case-insensitive).
    static func isScriptable(_ url: String) -> Bool {
        var scheme = [UInt8]()
        for byte in url.utf8 {
            if scheme.isEmpty && byte <= 0x20 { continue }
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: ":") {
                let name = String(decoding: scheme, as: UTF8.self)
                return name == "javascript" || name == "vbscript" || name == "data"
            }
            scheme.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
            if scheme.count > 10 { return false }
        }
        return false
    }

    /// The `<head>` of the landing and 404 pages, through `<body>`'s opening.
    private static func head(title: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<meta name=\"referrer\" content=\"no-referrer\">\n"
            + "<title>\(escape(title))</title>\n<style>\(styleSheet)</style>\n</head>\n"
    }

    private static func button(_ url: String, _ label: String) -> String {
        isScriptable(url) ? "" : "<a href=\"\(escape(url))\">\(escape(label))</a>\n"
    }

    private static func meta(property: String, _ content: String) -> String {
        "<meta property=\"\(property)\" content=\"\(escape(content))\">\n"
    }

    private static func meta(name: String, _ content: String) -> String {
        "<meta name=\"\(name)\" content=\"\(escape(content))\">\n"
    }
}
