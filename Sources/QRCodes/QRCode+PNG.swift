import CPNG

/// PNG through libpng's simplified API (`png_image_write_to_memory`: no callbacks, no setjmp), 8-bit grey.
extension QRCode {
    /// Pixels per module, by default 8: a 33-module code with its quiet zone is 328 pixels wide.
    public func png(scale: Int = 8) -> [UInt8]? {
        guard (1...64).contains(scale) else { return nil }
        let side = (size + 2 * Self.quietZone) * scale
        var pixels = [UInt8](repeating: 0xFF, count: side * side)
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                let top = (y + Self.quietZone) * scale
                let left = (x + Self.quietZone) * scale
                for row in top..<(top + scale) {
                    for column in left..<(left + scale) { pixels[row * side + column] = 0 }
                }
            }
        }
        var image = png_image()
        routereg_png_image_gray(&image, png_uint_32(side), png_uint_32(side))
        defer { png_image_free(&image) }
        // First ask for the size, then write into a buffer of that size.
        var length: png_alloc_size_t = 0
        let measured = pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &length, 0, raw.baseAddress, png_int_32(side), nil)
        }
        guard measured != 0, length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBytes { buffer in
            pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(
                    &image, buffer.baseAddress, &length, 0, raw.baseAddress, png_int_32(side), nil)
            }
        }
        guard written != 0 else { return nil }
        return Array(out.prefix(Int(length)))
    }
}
