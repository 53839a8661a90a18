/// The URLs a short link is reached by, built in one place: the short URL it is shared as, and the one its QR
/// code encodes. The server's link domain, `Links.Get`, `Links.QRCode`, the QR images and `routereg link qr`
/// all build them here, so what a code encodes and what a click is counted as cannot drift apart.
public enum ShortLinkURL {
    /// The query item marking a visit as a scan of the link's QR code (`?qr=1`); such a click is counted with
    /// this name as its source.
    public static let scanQueryItem = "qr"

    /// The value `scanQueryItem` carries in a scan URL.
    static let scanQueryValue = "1"

    /// `https://{domain}/{code}`: the URL a link is shared as.
    public static func short(domain: String, code: String) -> String { "https://\(domain)/\(code)" }

    /// The short URL marked as reached by a scan (`https://{domain}/{code}?qr=1`): what the link's QR code
    /// encodes.
    public static func scan(domain: String, code: String) -> String {
        short(domain: domain, code: code) + "?\(scanQueryItem)=\(scanQueryValue)"
    }

    /// Whether a visit's `scanQueryItem` value (nil when absent) marks it as a scan.
    public static func isScan(queryValue: String?) -> Bool { queryValue == scanQueryValue }
}
