import Foundation
import HTTPServing
import QRCodes
import RegistryService
import RouteCore
import ThreadShards

/// `GET /{code}/qr.svg` and `/{code}/qr.png` on a link domain: the QR code of the short URL with `?qr=1`, so a
/// scan is counted as the `qr` source. Only for a live link (an unknown, expired, deleted or disabled code gets
/// the 404 page). Drawn once per request thread and link-index version, then served from memory: a QR code
/// depends on the domain and code alone.
final class ShortLinkQRCodes: Sendable {
    enum Format: UInt8 {
        case svg, png

        var contentType: String { self == .svg ? "image/svg+xml" : "image/png" }
    }

    private struct Key: Hashable, Sendable {
        var host: String
        var code: String
        var format: Format
    }

    /// Most images a thread keeps before starting over (as `ShortLinkPages.maxPrepared`).
    static let maxPrepared = 1_024

    private let service: RegistryService
    private let images = VersionedMemo<Key, PreparedResponse, UInt64>(initial: 0, limit: maxPrepared)

    init(service: RegistryService) { self.service = service }

    func respond(code: String, format: Format, _ request: HTTPRequest) -> HTTPResponse {
        let domain = request.host
        let version = service.links.version
        guard let hit = service.links.hit(domain: domain, code: code), hit.isLive(at: Date()) else {
            return ShortLinkPages.notFoundPage()
        }
        let key = Key(host: domain, code: code, format: format)
        if let kept = images.value(key, version: version) { return kept.response }
        guard let drawn = Self.draw(ShortLinkURL.scan(domain: domain, code: code), format) else {
            return .text(500, "the QR code could not be drawn\n")
        }
        images.keep(drawn, key, version: version)
        return drawn.response
    }

    /// `Links.QRCode`: the SVG of a link that was not deleted (a disabled or expired one too: its code does not
    /// change, so it can be printed before the link is switched on).
    static func describe(_ input: API.LinksQRCode.Input, in service: RegistryService) throws(RegistryError)
        -> API.LinksQRCode.Output
    {
        let domain = input.domain.lowercased()
        guard let link = service.links.link(domain: domain, code: input.code), !link.deleted else {
            throw RegistryError.notFound(.link(domain, input.code))
        }
        let url = ShortLinkURL.scan(domain: domain, code: link.link.code)
        guard let code = try? QRCode(encoding: url) else {
            // A short URL is at most ~140 ASCII bytes, far below what a QR code holds: only memory can fail here.
            throw RegistryError.internal()
        }
        return API.LinksQRCode.Output(url: url, svg: code.svg())
    }

    private static func draw(_ url: String, _ format: Format) -> PreparedResponse? {
        guard let code = try? QRCode(encoding: url) else { return nil }
        let body: [UInt8]
        switch format {
        case .svg: body = Array(code.svg().utf8)
        case .png:
            guard let png = code.png() else { return nil }
            body = png
        }
        return PreparedResponse(status: 200, body: body, contentType: format.contentType, headers: headers)
    }

    /// An image, never a page: nothing in it runs (an SVG opened on its own gets no script either).
    private static let headers: [(String, String)] = [
        ("Cache-Control", "public, max-age=3600"),
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]
}
