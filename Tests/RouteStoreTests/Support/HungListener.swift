import Foundation
import RouteStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes the handshake and takes what libpq
/// sends, and nothing ever answers, as with a SIGSTOPped server.
final class HungListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard descriptor >= 0 && listening else {
            if descriptor >= 0 { close(descriptor) }
            throw StoreError(.connectionFailed, detail: "cannot listen on 127.0.0.1")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// How many connections were made to it so far (each libpq attempt is one); they are taken off the queue.
    func takeConnections() -> Int {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var count = 0
        while case let connection = accept(descriptor, nil, nil), connection >= 0 {
            close(connection)
            count += 1
        }
        return count
    }
}

extension HungListener {
    /// `url` (a URI) with this host put first, as in `postgresql://u@primary,standby/db` with a hung primary.
    func first(in url: String) throws -> String {
        let scheme = try #require(url.range(of: "://"), "a URI: \(url)")
        let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        let hosts = url[scheme.upperBound..<authorityEnd].firstIndex(of: "@").map(url.index(after:))
        let at = hosts ?? scheme.upperBound
        return url[..<at] + "127.0.0.1:\(port)," + url[at...]
    }

    /// Whether the test database's URL is a URI a hung host can be put into: `DATABASE_URL` unset (the
    /// harness's own cluster's URL is one) or a URI.
    static let testURLIsAURI =
        ProcessInfo.processInfo.environment["DATABASE_URL"].map {
            $0.isEmpty || $0.hasPrefix("postgresql://") || $0.hasPrefix("postgres://")
        } ?? true
}
