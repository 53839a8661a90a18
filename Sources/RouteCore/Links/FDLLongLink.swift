/// The parameters of a Firebase Dynamic Links long link (`https://example.page.link/?link=…&apn=…&ibi=…`), read to
/// import links made before FDL shut down (2025-08-25).
///
/// Only reads: the values are text as the link's author wrote them. Every URL among them (`link`, `afl`, `ifl`,
/// `ofl`, `si`) must go through `LinkDestinations.check` before anything sends a person there, and the versions
/// through the registry's version parsing. FDL accepted `http` deep links; `check` does not.
public struct FDLLongLink: Sendable, Hashable {
    /// The deep link the app opens: always present and not empty.
    public var link: String?
    /// iOS: the App Store ID of the app (`isi`).
    public var isi: String?
    /// iOS: the bundle ID of the app that opens the link (`ibi`).
    public var ibi: String?
    /// iOS: the minimum app version that can open the link (`imv`), a version string.
    public var imv: String?
    /// Android: the package name of the app that opens the link (`apn`).
    public var apn: String?
    /// Android: the minimum versionCode that can open the link (`amv`).
    public var amv: String?
    /// Android: where to go when the app isn't installed (`afl`), instead of Google Play.
    public var afl: String?
    /// iOS: where to go when the app isn't installed (`ifl`), instead of the App Store.
    public var ifl: String?
    /// Other platforms (desktop): where to go instead of the deep link (`ofl`).
    public var ofl: String?
    /// Social preview: the title (`st`).
    public var st: String?
    /// Social preview: the description (`sd`).
    public var sd: String?
    /// Social preview: the image URL (`si`).
    public var si: String?
    /// Whether to skip the app preview page (`efr=1`; any other value, or none, keeps it).
    public var efr: Bool

    /// Parses an `application/x-www-form-urlencoded` query (with or without its leading `?`); nil when `link` is
    /// absent, empty or not decodable.
    ///
    /// Pairs are split on `&` only; a pair without `=` has an empty value; `+` is a space and `%XX` a byte, and the
    /// bytes must be UTF-8. Names are decoded the same way (`%6Cink` is `link`). Unknown names are ignored. The
    /// first occurrence of a name wins, even when its value is empty or not decodable (then the field is nil): a
    /// later duplicate never fills in, so this parser agrees with every reader that takes the first value. Unlike
    /// the WHATWG parser, which keeps a malformed `%` as written, a value with one is not decodable: a link whose
    /// escapes are broken was not written by FDL's builders, and guessing what it meant is how a guard is bypassed.
    public init?(query: String) {
        // Split on the ASCII delimiters' bytes, not on `Character`s: `&` or `=` followed by a combining mark still
        // delimits, as it does for every form parser.
        var bytes = Array(query.utf8)[...]
        if bytes.first == UInt8(ascii: "?") { bytes = bytes.dropFirst() }
        var seen: Set<String> = []
        var values: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = Self.formDecoded(pair[..<(equals ?? pair.endIndex)]) else { continue }
            guard Self.names.contains(name), seen.insert(name).inserted else { continue }
            let value = equals.map { Self.formDecoded(pair[($0 + 1)...]) } ?? ""
            if let value, !value.isEmpty { values[name] = value }
        }
        guard let link = values["link"] else { return nil }
        self.link = link
        isi = values["isi"]
        ibi = values["ibi"]
        imv = values["imv"]
        apn = values["apn"]
        amv = values["amv"]
        afl = values["afl"]
        ifl = values["ifl"]
        ofl = values["ofl"]
        st = values["st"]
        sd = values["sd"]
        si = values["si"]
        efr = values["efr"] == "1"
    }

    /// The long link's query as the registry serves it (`og:url`, the canonical link): the parameters read, in a
    /// fixed order, each form-encoded again, without the social preview (`st`, `sd`, `si`) unless
    /// `includingPreview`, so a page never carries words of the URL's writer it does not show as theirs.
    public func query(includingPreview: Bool) -> String {
        var pairs: [(String, String?)] = [
            ("link", link), ("isi", isi), ("ibi", ibi), ("imv", imv), ("apn", apn), ("amv", amv), ("afl", afl),
            ("ifl", ifl), ("ofl", ofl),
        ]
        if includingPreview { pairs += [("st", st), ("sd", sd), ("si", si)] }
        if efr { pairs.append(("efr", "1")) }
        return pairs.compactMap { name, value in value.map { "\(name)=\(StoreLinks.percentEncode($0))" } }.joined(
            separator: "&")
    }

    /// The parameters read; the rest (`ius`, `ipfl`, `ipbi`, analytics `utm_*`, `at`, `ct`, `mt`, `pt`) are ignored.
    private static let names: Set<String> = [
        "link", "isi", "ibi", "imv", "apn", "amv", "afl", "ifl", "ofl", "st", "sd", "si", "efr",
    ]

    /// Form-decodes one name or value: `+` is a space, `%XX` a byte; nil for a malformed escape or invalid UTF-8.
    private static func formDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            switch bytes[i] {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
                i += 1
            case UInt8(ascii: "%"):
                guard i + 2 < bytes.endIndex, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else {
                    return nil
                }
                decoded.append(high << 4 | low)
                i += 3
            case let byte:
                decoded.append(byte)
                i += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
