import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One blocking TCP connection to 127.0.0.1 that sends exactly the bytes a test means (trickled headers,
/// thousands of headers, a half-closed socket) and reads whatever comes back until the server closes it.
final class RawConnection {
    private let fd: Int32

    /// Connects; `receiveTimeout` bounds every read.
    init(port: UInt16, receiveTimeout: Int = 10) throws {
        // A local descriptor, stored only once connected: were `fd` set before a throw, the deinitializer
        // would close it a second time, and by then the number may be another thread's socket (a server's
        // connection, which libmicrohttpd then fails to close and aborts).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ReliabilityError("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ReliabilityError("connect: \(reason)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; false when the server has already closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Closes the sending half: the server sees end of stream but may still answer.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Everything the server sends until it closes the connection, a read times out, or `limit` bytes came.
    /// `closed` tells whether the server closed the connection (end of stream or reset).
    func readAll(limit: Int = 1 << 20) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += chunk[..<n]
            } else if n == 0 || errno == ECONNRESET {
                return (received, true)
            } else {
                return (received, false)
            }
        }
        return (received, false)
    }

    /// Reads until the end of a response's headers and `Content-Length` body (or the connection closes);
    /// returns the status code (nil when nothing parseable came) and the response text.
    func readResponse() -> (status: Int?, text: String) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let complete = Self.completeLength(received) {
                let text = String(decoding: received[..<complete], as: UTF8.self)
                return (Self.status(text), text)
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += chunk[..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        return (Self.status(text), text)
    }

    private static func status(_ text: String) -> Int? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }

    /// The length of a complete response at the start of `bytes`, if one is there.
    private static func completeLength(_ bytes: [UInt8]) -> Int? {
        let marker = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(marker) })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let total = end + 4 + length
        return bytes.count >= total ? total : nil
    }
}
