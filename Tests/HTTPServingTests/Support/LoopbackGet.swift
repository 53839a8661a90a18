import Foundation

/// One HTTP/1.1 GET to a server on loopback, read to the end (`Connection: close`): the status and the body.
/// The HTTP layer's tests depend on nothing but the layer, so they carry this much of a client themselves.
struct LoopbackGet {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var status: Int
    var body: String

    /// Sends `GET path` with `headers` to 127.0.0.1:`port`; every read waits at most 10 s.
    init(port: UInt16, _ path: String, headers: [(String, String)] = []) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
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
        guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw Failure(description: "send: \(String(cString: strerror(errno)))")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            received += chunk[..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n"),
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap({ Int($0) })
        else { throw Failure(description: "not an HTTP response: \(text.prefix(80))") }
        self.status = status
        self.body = String(text[headEnd.upperBound...])
    }
}
