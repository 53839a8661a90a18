import Foundation
import QRCodes
import RegistryTesting
import Testing

/// QR codes as a camera reads them: each rendering decoded by ZBar (not the encoder) back to the text encoded.
@Suite(.enabled(if: QRDecoder.isAvailable, "zbarimg is not installed (scripts/bootstrap test installs it)"))
struct QRCodeTests {
    static let urls = [
        "https://go.badoo.com/summer?qr=1",
        "https://go.badoo.com/" + String(repeating: "x", count: 64) + "?qr=1",
        "https://links.example.org/Ab_9-zZ?qr=1",
    ]

    @Test(arguments: urls) func thePNGReadsBackAsTheURL(url: String) throws {
        let code = try QRCode(encoding: url)
        let png = try #require(code.png())
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try QRDecoder.decode(png: png) == url)
    }

    /// The SVG's path read back into modules is the same code, so it scans as the PNG does.
    @Test(arguments: urls) func theSVGDrawsTheSameModules(url: String) throws {
        let code = try QRCode(encoding: url)
        let svg = code.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(Self.modules(ofSVG: svg, size: code.size) == code.modules)
    }

    @Test func aLongerTextNeedsABiggerCode() throws {
        #expect(try QRCode(encoding: "https://go.x/a").size < QRCode(encoding: Self.urls[1]).size)
        // Sizes are 21 + 4 × (version − 1).
        #expect(try (QRCode(encoding: Self.urls[1]).size - 21) % 4 == 0)
    }

    @Test func whatCannotBeEncodedIsRefused() throws {
        #expect(throws: QRCode.Failure.invalidText) { try QRCode(encoding: "") }
        #expect(throws: QRCode.Failure.invalidText) { try QRCode(encoding: "a\u{0}b") }
        #expect(throws: QRCode.Failure.tooLong) { try QRCode(encoding: String(repeating: "x", count: 5000)) }
        let code = try QRCode(encoding: "x")
        #expect(code.png(scale: 0) == nil)
    }

    /// Parses `M{x} {y}h{n}v1h-{n}z` runs (module units, quiet zone included) back into a grid.
    static func modules(ofSVG svg: String, size: Int) -> [Bool]? {
        guard let start = svg.range(of: " d=\""), let end = svg[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        var grid = [Bool](repeating: false, count: size * size)
        for run in svg[start.upperBound..<end].split(separator: "z") {
            let numbers = run.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count == 5 else { return nil }
            let (x, y, width) = (numbers[0] - QRCode.quietZone, numbers[1] - QRCode.quietZone, numbers[2])
            guard y >= 0, y < size, x >= 0, x + width <= size else { return nil }
            for column in x..<(x + width) { grid[y * size + column] = true }
        }
        return grid
    }
}
