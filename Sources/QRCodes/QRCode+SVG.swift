/// SVG: one path of the dark runs of each row on a white square, in module units, so it scales to any size
/// without blurring (`shape-rendering="crispEdges"`) and stays a few kilobytes for a URL.
extension QRCode {
    public func svg() -> String {
        let side = size + 2 * Self.quietZone
        var path = ""
        path.reserveCapacity(size * size)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" "
            + "shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>\n"
    }
}
