import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Timed requests from a thread of their own, over a fresh blocking socket each (`Connection: close`).
///
/// Latency figures must be the server's: measured from async test code they would include waits for the
/// cooperative pool, which other suites keep busy with blocking cluster work (initdb, pg_ctl) on two cores.
enum ProbeClient {
    struct Answer {
        var status: Int
        var body: String
        var seconds: Double
        /// The status line and headers, as received.
        var head: String = ""

        /// A header's value (case-insensitive name), if present.
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Sends one request to 127.0.0.1:`port` and reads the whole answer (status 0 when the socket failed).
    static func request(
        port: UInt16, _ method: String, _ path: String, host: String = "localhost", body: String = "",
        headers: [String: String] = [:]
    ) -> Answer {
        let start = ContinuousClock.now
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
        let payload = Array(body.utf8)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if method == "POST" { request += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8) + payload
        var received: [UInt8] = []
        if connected == 0, bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received += chunk[0..<count]
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let split = text.range(of: "\r\n\r\n")
        let bodyText = split.map { String(text[$0.upperBound...]) } ?? ""
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text
        return Answer(status: status, body: bodyText, seconds: start.duration(to: .now).secondsValue, head: head)
    }

    /// Runs `body` on a new thread and returns its result without holding a cooperative thread meanwhile.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await ThreadCall(body).value
    }
}

/// Work started on a thread of its own the moment it is created, not whenever the cooperative pool gets to a
/// child task: a request a test means to send during a hang must be on the wire before the hang ends, however
/// busy the pool is.
final class ThreadCall<T: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once before `done` is signalled and read only after waiting on it.
    private var result: T?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in
            result = body()
            done.signal()
        }
        thread.start()
    }

    /// The result, waited for on another thread so no cooperative thread blocks.
    var value: T {
        get async {
            await withCheckedContinuation { continuation in
                Thread {
                    self.done.wait()
                    self.done.signal()
                    continuation.resume(returning: self.result!)
                }.start()
            }
        }
    }
}
