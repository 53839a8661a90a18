import CQREncode
import Foundation

/// A QR code's modules, drawn by libqrencode (the encoder Debian and most QR tools ship): `size` × `size`
/// squares, dark or light, without the quiet zone a reader needs around them (the renderers add it).
public struct QRCode: Sendable, Hashable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// The light border a reader needs, in modules (ISO/IEC 18004 asks for 4).
    public static let quietZone = 4

    /// Why `text` was not encoded.
    public enum Failure: Error, Equatable {
        /// Longer than the largest QR code holds at this error correction.
        case tooLong
        /// Empty or holding a NUL byte (the encoder takes a C string).
        case invalidText
        /// The encoder failed for another reason (out of memory); errno's value.
        case encoder(Int32)
    }

    /// Encodes `text` as bytes (8-bit mode, UTF-8), error correction level M (15 %: the usual choice for a URL
    /// printed on paper), the smallest version that holds it. Readers guess the bytes' encoding (ZBar reads
    /// non-ASCII as Latin-1), so text meant to be scanned should be ASCII, as short URLs are.
    public init(encoding text: String) throws(Failure) {
        guard !text.isEmpty, !text.utf8.contains(0) else { throw .invalidText }
        errno = 0
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw errno == ERANGE ? .tooLong : errno == EINVAL ? .invalidText : .encoder(errno)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what kind of module it is.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }
}
