import Foundation
import RouteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 JSON-RPC responder on 127.0.0.1 and an ephemeral port, for testing the client's wire
/// handling without the real server: one request per connection, each connection on its own thread (a
/// connection the client opened and left idle must not hold up the next one, as in a serial loop it would).
///
/// A `GET /canopen/v1/{app}/{platform}/{version}.json` reaches the handler as the `CanOpen.GetTable` call it
/// stands for (`viaGET`, `If-None-Match` as `ifNoneMatch`), and its `.result` is served as the registry
/// serves that GET: the bare table with its ETag, or a 304; an `.error` becomes a plain-text 404.
///
/// `@unchecked Sendable`: the socket descriptors are set once in `init` (the listening one) or owned by
/// the thread serving it; everything shared (`requests`, `held`, `handler`) sits behind `lock`.
final class FakeRPCServer: @unchecked Sendable {
    /// What the server received.
    struct Request: Sendable {
        var method: String
        var params: JSONValue
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
        /// A table GET, presented as the call it stands for.
        var viaGET = false
    }

    /// How to answer one request.
    enum Reply: Sendable {
        /// `{"jsonrpc":"2.0","id":…,"result":<json>}`
        case result(String)
        /// `{"jsonrpc":"2.0","id":…,"error":<json>}`
        case error(String)
        /// An arbitrary HTTP status and body.
        case http(status: Int, body: String)
        /// Never answer (until the server stops).
        case hang
        /// Close the connection without a byte of answer, as a server or proxy closing a kept-alive connection
        /// at the moment the request arrives.
        case close
    }

    typealias Handler = @Sendable (Request) -> Reply

    let port: UInt16
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let lock = NSLock()
    private var handler: Handler
    private var received: [Request] = []
    private var held: [Int32] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(handler: @escaping Handler) throws {
        self.handler = handler
        (listener, port) = try Self.openListener()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Every request so far, in order.
    var requests: [Request] { lock.withLock { received } }

    /// Replaces the handler (e.g. to change the table between calls).
    func setHandler(_ handler: @escaping Handler) { lock.withLock { self.handler = handler } }

    /// Closes the listening socket and every held connection; afterwards connections are refused.
    /// Every test calls it (the accept thread keeps the server alive until then).
    func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        if wasStopped { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
        for fd in lock.withLock({ held }) { close(fd) }
    }

    private func acceptLoop() {
        defer { finished.signal() }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            if lock.withLock({ stopped }) {
                close(fd)
                return
            }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(fd) else {
            close(fd)
            return
        }
        let handler = lock.withLock {
            received.append(request)
            return self.handler
        }
        let id = "1"
        if request.viaGET {
            let reply = handler(request)
            respondToTableGET(fd, reply)
            if case .hang = reply { return }
            close(fd)
            return
        }
        switch handler(request) {
        case .result(let json): respond(fd, 200, #"{"jsonrpc":"2.0","id":\#(id),"result":\#(json)}"#)
        case .error(let json): respond(fd, 200, #"{"jsonrpc":"2.0","id":\#(id),"error":\#(json)}"#)
        case .http(let status, let body): respond(fd, status, body)
        case .hang:
            lock.withLock { held.append(fd) }
            return
        case .close: break
        }
        close(fd)
    }

    private func respond(
        _ fd: Int32, _ status: Int, _ body: String, headers: [(String, String)] = [],
        contentType: String = "application/json"
    ) {
        let bytes = Array(body.utf8)
        var head = "HTTP/1.1 \(status) X\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        writeAll(fd, Array(head.utf8) + bytes)
    }

    /// A `CanOpen.GetTable` answer as the registry's table GET sends it.
    private func respondToTableGET(_ fd: Int32, _ reply: Reply) {
        switch reply {
        case .result(let json):
            guard let output = try? JSONDecoder().decode(API.CanOpenGetTable.Output.self, from: Data(json.utf8))
            else { return respond(fd, 500, "bad fixture\n", contentType: "text/plain") }
            if output.notModified { return respond(fd, 304, "", headers: [("ETag", output.etag)]) }
            let table = output.table.flatMap { try? CanonicalJSON.encode($0) } ?? Data()
            respond(fd, 200, String(decoding: table, as: UTF8.self), headers: [("ETag", output.etag)])
        case .error: respond(fd, 404, "not found\n", contentType: "text/plain")
        case .http(let status, let body): respond(fd, status, body)
        case .hang: lock.withLock { held.append(fd) }
        case .close: break
        }
    }

    /// `GET /canopen/v1/{app}/{platform}/{version}.json` as the `CanOpen.GetTable` call it stands for.
    static func tableGET(requestLine: String, headers: [String: String]) -> Request? {
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET", parts[1].hasPrefix("/canopen/v1/") else { return nil }
        let segments = parts[1].dropFirst("/canopen/v1/".count).split(separator: "/")
        guard segments.count == 3, segments[2].hasSuffix(".json") else { return nil }
        var params: [String: JSONValue] = [
            "app": .string(String(segments[0]).removingPercentEncoding ?? String(segments[0])),
            "platform": .string(String(segments[1])), "version": .string(String(segments[2].dropLast(5))),
        ]
        if let etag = headers["if-none-match"] { params["ifNoneMatch"] = .string(etag) }
        return Request(
            method: "CanOpen.GetTable", params: .object(params), headers: headers, body: Data(), viaGET: true)
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func fill() -> Bool {
            var n: Int
            // A signal (a child process ending elsewhere in the test process) must not cut a request short.
            repeat {
                n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            } while n < 0
                && errno == EINTR
            if n <= 0 { return false }
            buffer += chunk[0..<n]
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            guard fill() else { return nil }
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
        }
        guard let end = headerEnd, let head = String(bytes: buffer[0..<end], encoding: .utf8) else { return nil }
        var headers: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if let get = Self.tableGET(requestLine: head.components(separatedBy: "\r\n")[0], headers: headers) {
            return get
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if headers["expect"]?.lowercased() == "100-continue" {
            writeAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while buffer.count < end + 4 + length {
            guard fill() else { return nil }
        }
        let body = Data(buffer[(end + 4)..<(end + 4 + length)])
        guard let envelope = try? JSONValue(json: body), let method = envelope["method"]?.stringValue else {
            return Request(method: "", params: .null, headers: headers, body: body)
        }
        return Request(method: method, params: envelope["params"] ?? .null, headers: headers, body: body)
    }

    /// A listening socket on 127.0.0.1 and the port the kernel chose.
    private static func openListener(listening: Bool = true) throws -> (Int32, UInt16) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard bound == 0, !listening || listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var actualSize = size
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualSize) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// A port nothing listens on (bound, then released), for connection-refused tests.
    /// A loopback port that refuses connections: bound, never listening, and held until the process ends.
    /// Closed at once, its number could go to a server another test starts meanwhile.
    static func closedPort() throws -> UInt16 {
        let (fd, port) = try openListener(listening: false)
        reservedPorts.withLock { $0.append(fd) }
        return port
    }

    private static let reservedPorts = Locked<[Int32]>([])
}

/// A value behind a lock, for test state shared with the fake server's thread.
/// `@unchecked Sendable`: every access goes through `lock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    @discardableResult
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
