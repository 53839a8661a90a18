extension API {
    /// A short link's QR code as SVG, the one its link domain serves at `/{code}/qr.svg`: for the console and
    /// clients, which cannot load an image from the link domain (the console's CSP allows its own origin only).
    public enum LinksQRCode: RPCMethodDescriptor {
        public static let name = "Links.QRCode"
        public static let access = Access.reader
        /// From the link index in memory, like a click.
        public static let traits = MethodTraits.read(from: .snapshot)
        public static func scope(_ input: Input) -> CallScope { .link(domain: input.domain, code: input.code) }
        public typealias Input = LinkRef
        public struct Output: Codable, Sendable, Hashable {
            /// What the code encodes: the short URL with `?qr=1`, so scans are counted as the `qr` source.
            public var url: String
            /// The SVG document (module units, quiet zone included; black on white).
            public var svg: String
            public init(url: String, svg: String) {
                self.url = url
                self.svg = svg
            }
        }
    }
}
