import RouteCore

/// A deterministic, realistic rule list and URL sample: what a large app's generated AASA looks like
/// (the fallback-marker exclusion first, exclusions before the rules they carve out of, mostly literal
/// prefixes with a trailing `/*`, some `?`-dictionary rules, some case-insensitive and `$(lang)` rules).
struct BenchmarkCorpus {
    let rules: [ComponentRule]
    let urls: [LinkURL]

    private static let words = [
        "u", "profile", "l", "a", "help", "shop", "buy", "item", "chat", "feed", "photos", "video", "events",
        "search", "settings", "invite", "offer", "promo", "blog", "news", "live", "stories", "match", "likes",
        "encounters", "premium", "verify", "reset", "login", "signup", "gift", "pay", "cart", "orders", "track",
    ]

    init(ruleCount: Int, urlCount: Int = 4096, seed: UInt64 = 42) {
        var random = SplitMix64(seed: seed)
        func word() -> String { Self.words[Int(random.next() % UInt64(Self.words.count))] }
        func token() -> String { word() + String(random.next() % 1000) }

        var rules = [ComponentRule(query: .items(["ul_fallback": "?*"]), exclude: true)]
        var prefixes: [String] = []
        while rules.count < ruleCount {
            let prefix = "/\(word())/\(token())"
            let roll = random.next() % 100
            switch roll {
            case 0..<55: rules.append(ComponentRule(path: prefix + "/*"))
            case 55..<65: rules.append(ComponentRule(path: prefix + "/private/*", exclude: true))
            case 65..<75: rules.append(ComponentRule(path: prefix + "/????"))
            case 75..<83: rules.append(ComponentRule(path: prefix + "/*", query: .items(["ref": "?*"])))
            case 83..<90: rules.append(ComponentRule(path: prefix.uppercased() + "/*", caseSensitive: false))
            case 90..<94: rules.append(ComponentRule(path: prefix + "/*/edit"))
            case 94..<96: rules.append(ComponentRule(path: prefix, fragment: "?*"))
            case 96..<98: rules.append(ComponentRule(path: "/$(lang)" + prefix + "/*"))
            default: rules.append(ComponentRule(path: prefix + "/$(digit)$(digit)/*", percentEncoded: false))
            }
            prefixes.append(prefix)
        }
        self.rules = rules

        var urls: [LinkURL] = []
        while urls.count < urlCount {
            let base = prefixes.isEmpty ? "/x" : prefixes[Int(random.next() % UInt64(prefixes.count))]
            let roll = random.next() % 10
            let text: String
            switch roll {
            case 0..<5: text = "https://example.com\(base)/\(token())?utm_source=mail&id=\(random.next() % 100_000)"
            case 5: text = "https://example.com\(base)/private/\(token())"
            case 6: text = "https://example.com/en\(base)/x"
            case 7: text = "https://example.com\(base)/\(token())?ul_fallback=1"
            case 8: text = "https://example.com/\(word())/\(token())/\(token())"
            default: text = "https://example.com\(base.uppercased())/12/\(token())"
            }
            urls.append(LinkURL(text)!)
        }
        self.urls = urls
    }
}

/// A small, fast, seedable generator, so every run measures the same corpus.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
