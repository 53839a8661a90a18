import Foundation
import QRCodes
import RouteCore

/// `routereg link qr DOMAIN CODE [--svg FILE] [--png FILE]`: the QR code of a short link, the same the link
/// domain serves at `/{code}/qr.svg` and `/{code}/qr.png` (the short URL with `?qr=1`, so scans are counted as
/// their own source). Without a file flag it is drawn in the terminal.
enum LinkQR {
    static let spec = CommandSpec(
        ["link", "qr"], summary: "the QR code of a short link: in the terminal, or as an SVG or PNG file",
        positionals: LinkCommands.codeArguments,
        flags: [
            .value("svg", "FILE", "write the SVG to FILE (- for stdout)"),
            .value("png", "FILE", "write a PNG to FILE (8 pixels per module)"),
        ],
        examples: ["link qr go.badoo.com summer", "link qr go.badoo.com summer --png summer.png"],
        action: .run(run))

    static func run(_ run: Invocation) throws {
        // The link must exist: a code never made would draw a QR code that leads to a 404.
        let (link, _) = try run.call(API.LinksGet.self, .init(domain: run.argument(0), code: run.argument(1)))
        let url = ShortLinkURL.scan(domain: link.link.domain, code: link.link.code)
        let code: QRCode
        do { code = try QRCode(encoding: url) } catch { throw CommandFailure("\(url) cannot be drawn as a QR code") }
        let svgPath = run.arguments.value("svg")
        let pngPath = run.arguments.value("png")
        if svgPath == "-" { return run.console.write(code.svg()) }
        if let svgPath { try Data(code.svg().utf8).write(to: URL(fileURLWithPath: svgPath), options: .atomic) }
        if let pngPath {
            guard let png = code.png() else { throw CommandFailure("the PNG could not be written") }
            try Data(png).write(to: URL(fileURLWithPath: pngPath), options: .atomic)
        }
        if svgPath == nil && pngPath == nil { run.print(terminal(code)) }
        run.print(url)
    }

    /// Two module rows per text line with half blocks, quiet zone included: the light modules are drawn in the
    /// text colour, so it scans off a light-on-dark terminal (as `qrencode -t UTF8` draws); for anything else,
    /// write a file.
    static func terminal(_ code: QRCode) -> String {
        let zone = QRCode.quietZone
        let side = code.size + 2 * zone
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (cx, cy) = (x - zone, y - zone)
            return cx >= 0 && cy >= 0 && cx < code.size && cy < code.size && code.isDark(x: cx, y: cy)
        }
        var lines: [String] = []
        for y in stride(from: 0, to: side, by: 2) {
            var line = ""
            for x in 0..<side {
                switch (dark(x, y), y + 1 < side && dark(x, y + 1)) {
                case (false, false): line += "█"
                case (true, false): line += "▄"
                case (false, true): line += "▀"
                case (true, true): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
