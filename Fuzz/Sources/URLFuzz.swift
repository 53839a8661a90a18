import RouteCore

/// `LinkURL(_:)` on any text: nil, or a URL whose scheme and host are normalised, whose parts come from
/// the input, and that the matcher and an AASA evaluation can take without trapping.
enum URLFuzz {
    private static let document: AASADocument? = try? AASADocument(json: Seeds.badooAASA)

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let url = LinkURL(text) else { return }
        invariant(url.scheme == url.scheme.lowercased(), "scheme not lower-cased in \(text)")
        invariant(!url.host.hasSuffix(".") || url.host.hasPrefix("["), "trailing dot kept in host of \(text)")
        invariant(url.host == url.host.lowercased(), "host not lower-cased in \(text)")
        // Compared as bytes: the parser splits on bytes, and a Prepend character (U+070F) before the `#` makes
        // one grapheme of both, so a `Character` suffix would not match.
        let tail = Array((url.fragment.map { "#" + $0 } ?? "").utf8)
        invariant(Array(text.utf8).suffix(tail.count) == tail[...], "fragment is not the tail of \(text)")
        _ = url.description
        if let document {
            _ = document.evaluate(appID: Seeds.badooAppID, url: url, domain: "m.badoo.com")
            _ = document.evaluate(appID: Seeds.badooAppID, url: url, domain: url.host)
        }
    }
}
