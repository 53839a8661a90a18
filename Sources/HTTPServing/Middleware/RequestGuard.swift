import CMicroHTTPD

/// Refuses, from the head alone, what the server must not try to answer: a NUL or control character in the
/// request target (raw or `%00`) or a NUL in `Host` (libmicrohttpd's C strings would cut them silently,
/// so the server would answer for another path or host); a request whose framing or host could be read two
/// ways (two `Host` headers, `Content-Length` values that differ, `Content-Length` with `Transfer-Encoding`:
/// libmicrohttpd picks one, a proxy in front may have picked the other); and a declared body over the limit
/// (refused before it is read; libmicrohttpd then closes the connection).
///
/// The headers are scanned once, in C (`routereg_mhd_read_head`, when the request is made), for all of these
/// together. The answers are fixed sentences: nothing of the request is echoed.
public struct RequestGuard: HTTPMiddleware {
    public var hooks: HTTPMiddlewareHooks { [.head] }

    /// The largest body accepted.
    public let maxBodyBytes: Int

    public init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    public func head(_ request: HTTPRequest) -> HTTPResponse? {
        let problems = request.headProblems
        if request.targetHoldsControlCharacters || problems & Int(ROUTEREG_HEAD_HOST_NUL) != 0 {
            return .text(400, "bad request: NUL or control character in the request target or Host\n")
        }
        if problems & Int(ROUTEREG_HEAD_HOST_TWICE) != 0 {
            return .text(400, "bad request: more than one Host header\n")
        }
        if problems & Int(ROUTEREG_HEAD_LENGTH_CONFLICT) != 0 {
            return .text(400, "bad request: Content-Length headers with different values\n")
        }
        if problems & Int(ROUTEREG_HEAD_LENGTH_AND_TE) != 0 {
            return .text(400, "bad request: both Content-Length and Transfer-Encoding\n")
        }
        if let length = request.contentLength, length > maxBodyBytes {
            return .text(413, "request body too large\n")
        }
        return nil
    }
}

/// A NUL inside the request target, which libmicrohttpd's C strings would otherwise cut silently.
enum RequestTarget {
    /// - Parameters:
    ///   - rawLength: the raw target's length up to its first NUL, from the URI log callback; -1 when it holds
    ///     `%00`.
    ///   - version: libmicrohttpd's HTTP version, which it keeps in the same buffer right after the target.
    ///   - path: the unescaped path.
    static func holdsNUL(
        url: UnsafePointer<CChar>?, rawLength: Int?, version: UnsafePointer<CChar>?, path: String
    ) -> Bool {
        let isControl: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x7F }
        // Scanned in the string's own buffer: cheaper than stepping its UTF-8 view.
        if path.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isControl) })
            ?? path.utf8.contains(where: isControl)
        {
            return true
        }
        guard let url, let rawLength, let version else { return false }
        if rawLength < 0 { return true }
        let span = url.distance(to: version) - 1
        // Only when the version follows the target in the same line buffer is the span meaningful.
        guard span > 0, span < 1 << 20 else { return false }
        return rawLength < span
    }
}
