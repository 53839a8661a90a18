import Glibc

/// The host a request was sent to, normalized from its `Host` header so that documents are looked up by
/// one spelling: lower-cased, port removed, trailing dot removed, IPv6 literal without brackets.
public enum HostName {
    /// The normalized host of a `Host` value (or of a host name an operator typed); "" for none.
    public static func normalize(_ header: String?) -> String {
        guard let header else { return "" }
        if let plain = plainASCII(header) { return plain }
        var host = header.trimmingSpaces
        guard !host.isEmpty else { return "" }
        if host.hasPrefix("[") {
            // IPv6 literal: `[::1]:8080` -> `::1`.
            guard let close = host.firstIndex(of: "]") else { return "" }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.lowercased()
    }

    /// `normalize` of a header as libmicrohttpd holds it: the common name is cut from the C string's bytes,
    /// with one `String` made, the name itself.
    static func normalize(cString value: UnsafePointer<CChar>?) -> String {
        guard let value else { return "" }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value))
        if let end = plainASCIIEnd(bytes) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        }
        return normalize(String(decoding: bytes, as: UTF8.self))
    }

    /// The common case without any `Character` work (which costs a Unicode property lookup per
    /// character): a name of lower-case letters, digits, dots and dashes, with an optional port, is
    /// returned without its port. Anything else (upper case, brackets, spaces, a trailing dot) gives nil.
    private static func plainASCII(_ header: String) -> String? {
        var header = header
        guard let end = header.withUTF8({ plainASCIIEnd($0) }) else { return nil }
        return end == header.utf8.count ? header : String(header.utf8.prefix(end))
    }

    /// The length of the name when `bytes` are a plain name (see `plainASCII`) with an optional port.
    private static func plainASCIIEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var end = 0
        var sawPort = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                if !sawPort { end += 1 }
            case UInt8(ascii: ":"):
                if sawPort { return nil }
                sawPort = true
            default:
                return nil
            }
        }
        guard end > 0, bytes[end - 1] != UInt8(ascii: ".") else { return nil }
        return end
    }
}
