// Runs on every click of a short link, so it is shaped for cost: the User-Agent is lower-cased once (ASCII only,
// into a small byte buffer), then searched for a fixed list of byte tokens. No regex, no Foundation, no
// allocation beyond that one buffer. User-Agent headers are ASCII in practice; other bytes never match a token.

/// Who is asking for a short link, as far as the User-Agent tells: decides which answer the link domain serves
/// (a preview page for crawlers, the landing page or the store for phones, the web for desktops).
public enum LinkVisitor: String, Sendable, Hashable {
    /// A link-preview fetcher (chat apps, social networks), a search engine or an uptime monitor: gets the Open
    /// Graph page, and is counted as a bot.
    case crawler
    /// iPhone, iPad (in mobile mode) or iPod touch.
    case ios
    /// An Android phone or tablet.
    case android
    /// Anything else, including a missing User-Agent and iPadOS Safari in its default desktop mode (see `init`).
    case desktop

    /// Classifies a request from its User-Agent header (nil or empty → `.desktop`).
    ///
    /// Order: crawlers first (their tokens ride along with browser-like strings, and iMessage's fetcher presents
    /// a Mac Safari string plus `facebookexternalhit` and `Twitterbot`), then Windows Phone (whose strings also
    /// say "Android" and "iPhone") as desktop, then iPhone/iPad/iPod, then Android, else desktop.
    ///
    /// iPadOS 13+ Safari requests desktop sites by default and then sends a User-Agent identical to Safari on a
    /// Mac (`Macintosh; Intel Mac OS X 10_15_7`); only JavaScript (`navigator.maxTouchPoints`) could tell them
    /// apart, and a request carries none. Such an iPad is classified `.desktop`, deliberately: guessing "iOS"
    /// for every Mac would send real Mac users to the App Store. It costs the iPad little: when the app is
    /// installed iOS opens the universal link before any request reaches us, and otherwise the desktop answer
    /// (the web) is a usable page on an iPad.
    ///
    /// Only the first `maximumScannedBytes` bytes are examined, so the cost is bounded whatever the header.
    public init(userAgent: String?) {
        guard let userAgent, !userAgent.isEmpty else {
            self = .desktop
            return
        }
        self = Self.lowered(userAgent).withUnsafeBufferPointer { ua in
            if Self.crawlerTokenBytes.contains(where: { Self.contains(ua, $0) }) { return .crawler }
            if Self.contains(ua, Self.windowsPhoneToken) { return .desktop }
            if Self.iosTokenBytes.contains(where: { Self.contains(ua, $0) }) { return .ios }
            if Self.contains(ua, Self.androidToken) { return .android }
            return .desktop
        }
    }

    /// How much of a User-Agent is examined; real ones are under 512 bytes, crawler tokens included.
    public static let maximumScannedBytes = 1024

    /// The crawler tokens, lower-case, matched as substrings. Keep it short (each entry is a scan per request)
    /// and specific: a token must not appear in an in-app browser's User-Agent, or a person tapping the link
    /// inside that app would get the preview page instead of the landing page. So `pinterestbot` and
    /// `pinterest/0.` (the crawler's "Pinterest/0.2"), never bare `pinterest` (Pinterest's in-app browser says
    /// "[Pinterest/iOS]"); `slackbot` (covers "Slackbot-LinkExpanding 1.0"; Slack's own app says "Slack/");
    /// `whatsapp/` ("WhatsApp/2.23.20.0"); `telegrambot` (its "TelegramBot (like TwitterBot)" also matches
    /// `twitterbot`).
    public static let crawlerTokens: [String] = [
        "facebookexternalhit",  // Facebook, Messenger, Instagram, iMessage, LINE ("line-poker" rides with it)
        "facebot",
        "twitterbot",  // X/Twitter, iMessage, Telegram ("like TwitterBot")
        "slackbot",  // "Slackbot-LinkExpanding 1.0", "Slackbot 1.0"
        "whatsapp/",
        "telegrambot",
        "discordbot",
        "linkedinbot",
        "pinterestbot",
        "pinterest/0.",
        "skypeuripreview",  // Skype and Microsoft Teams
        "microsoftpreview",  // Outlook and Teams link previews
        "googlebot",
        "google-inspectiontool",
        "applebot",  // Siri and Spotlight suggestions
        "bingbot",
        "bingpreview",
        "redditbot",
        "embedly",  // many others embed through Embedly
        "vkshare",
        "snap url preview",  // Snapchat's preview fetcher, not its in-app browser ("Snapchat/…")
        "kakaotalk-scrap",  // not "KAKAOTALK", its in-app browser
        "mastodon/",  // each Mastodon server fetches previews itself
        "cardyb",  // Bluesky
        // Uptime monitors: bots, not people, in a link's stats (they get the preview page, a 200).
        "uptimerobot",
        "pingdom",
        "statuscake",
        "site24x7",
        "datadog/synthetics",
        "newrelicpinger",
        "checkly",
    ]

    static let crawlerTokenBytes: [[UInt8]] = crawlerTokens.map { Array($0.utf8) }
    static let iosTokenBytes: [[UInt8]] = ["iphone", "ipad", "ipod"].map { Array($0.utf8) }
    static let androidToken = Array("android".utf8)
    static let windowsPhoneToken = Array("windows phone".utf8)

    /// The first `maximumScannedBytes` bytes of `userAgent`, ASCII letters lower-cased.
    static func lowered(_ userAgent: String) -> [UInt8] {
        var lowered = [UInt8]()
        lowered.reserveCapacity(min(userAgent.utf8.count, maximumScannedBytes))
        for byte in userAgent.utf8.prefix(maximumScannedBytes) {
            lowered.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
        }
        return lowered
    }

    /// Whether `needle` occurs in `haystack`: a first-byte scan then a compare, enough for these lengths.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}
