/// The store URLs behind a landing page's "Get the app" button, with the attribution each store reads.
///
/// Every value is percent-encoded as a query or path component (RFC 3986: everything but `A–Z a–z 0–9 - . _ ~`
/// becomes `%XX` of its UTF-8 bytes, upper-case hex), so a referrer such as `utm_source=a&utm_medium=b` stays one
/// parameter of the store URL instead of becoming several.
public enum StoreLinks {
    /// Apple's limit on a campaign token (`ct`): 40 bytes.
    public static let campaignTokenLimit = 40

    /// `https://apps.apple.com/app/id{id}?pt={providerToken}&ct={campaign}&mt=8`.
    ///
    /// - `appStoreId`: the numeric Apple ID (FDL's `isi`); a leading `id` is accepted and dropped.
    /// - `campaign`: the App Store Connect campaign token, cut to 40 bytes (Apple's limit, at a character
    ///   boundary); left out when empty.
    /// - `providerToken`: the team's provider token (`pt`, from App Store Connect's campaign generator); without
    ///   it App Analytics does not attribute the campaign, so it is left out rather than guessed when nil.
    /// - `mt=8` (media type: apps) is what App Store Connect's generator appends; kept for fidelity.
    public static func appStore(appStoreId: String, campaign: String, providerToken: String? = nil) -> String {
        var id = Substring(appStoreId)
        let digits = id.dropFirst(2)
        if id.hasPrefix("id"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { id = digits }
        var query: [String] = []
        if let providerToken, !providerToken.isEmpty { query.append("pt=\(percentEncode(providerToken))") }
        let token = truncated(campaign, toBytes: campaignTokenLimit)
        if !token.isEmpty { query.append("ct=\(percentEncode(token))") }
        query.append("mt=8")
        return "https://apps.apple.com/app/id\(percentEncode(String(id)))?" + query.joined(separator: "&")
    }

    /// `https://play.google.com/store/apps/details?id={packageName}&referrer={referrer}`, the referrer
    /// percent-encoded once (the Play Install Referrer API hands the app the decoded string); left out when
    /// empty.
    public static func playStore(packageName: String, referrer: String) -> String {
        var url = "https://play.google.com/store/apps/details?id=\(percentEncode(packageName))"
        if !referrer.isEmpty { url += "&referrer=\(percentEncode(referrer))" }
        return url
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The longest prefix of `text` of whole characters within `limit` UTF-8 bytes.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit { break }
            result.append(character)
            bytes += size
        }
        return result
    }
}
