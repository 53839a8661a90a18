import Foundation
import ProcessSpawn

/// Reads QR codes back with ZBar's `zbarimg` (Debian's zbar-tools, installed by `scripts/bootstrap test`): the
/// tests check what a phone's camera would read, with a decoder that is not the encoder.
public enum QRDecoder {
    public static let executable = "/usr/bin/zbarimg"

    /// Whether the decoder is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The text of the one QR code in `png`; nil when none is read.
    public static func decode(png: [UInt8]) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Spawn(executable, ["--raw", "--quiet", "-Sdisable", "-Sqrcode.enable", file.path])
            .run(timeout: .seconds(30))
        guard result.status == 0 else { return nil }
        let text = result.standardOutput
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
