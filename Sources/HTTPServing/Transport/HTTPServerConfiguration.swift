import Foundation

/// How the HTTP daemon listens and what it tolerates from clients.
///
/// Every limit exists to keep one misbehaving client from exhausting the process: the defaults suit a
/// registry behind a load balancer; tests shrink them.
public struct HTTPServerConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address (`127.0.0.1`, `::1`); names are not resolved.
    public var host: String
    /// The TCP port; 0 picks an ephemeral one, reported by `HTTPServer.port`.
    public var port: UInt16
    /// Worker threads of libmicrohttpd's pool (each runs its own epoll loop).
    public var threadPoolSize: Int
    /// Most simultaneous connections (0: libmicrohttpd's default).
    public var connectionLimit: Int
    /// Most simultaneous connections from one IP address (0: unlimited).
    public var perIPConnectionLimit: Int
    /// Seconds an idle connection stays open.
    public var connectionTimeoutSeconds: Int
    /// Bytes libmicrohttpd may use per connection for headers and buffers (0: its default, 32 KiB).
    public var connectionMemoryLimit: Int
    /// Largest request body accepted; larger ones get 413.
    public var maxBodyBytes: Int
    /// How long `stop()` waits for in-flight requests before cutting them off.
    public var shutdownGracePeriod: Duration
    /// How much of the grace period deferred calls (long polls) get: a `Watch` may wait minutes for a change,
    /// and a deploy should not wait the whole grace period for it.
    public var deferredGracePeriod: Duration
    /// Whether the request log writes the client's address (`"remote"`): off by default, since the log is
    /// kept and shipped where the in-memory sign-in limiter's addresses are not (`serve --log-client-address`).
    public var logClientAddress: Bool

    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080,
        threadPoolSize: Int = AvailableCores.count,
        connectionLimit: Int = 4096, perIPConnectionLimit: Int = 0, connectionTimeoutSeconds: Int = 60,
        connectionMemoryLimit: Int = 0, maxBodyBytes: Int = 1 << 20, shutdownGracePeriod: Duration = .seconds(10),
        deferredGracePeriod: Duration = .seconds(1), logClientAddress: Bool = false
    ) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxBodyBytes = maxBodyBytes
        self.shutdownGracePeriod = shutdownGracePeriod
        self.deferredGracePeriod = deferredGracePeriod
        self.logClientAddress = logClientAddress
    }

    /// Parses a `--listen` value: `127.0.0.1:8080`, `[::1]:8080`, or `:8080` (loopback IPv4).
    /// Returns nil when the value is malformed.
    public static func listenAddress(_ value: String) -> (host: String, port: UInt16)? {
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let host = String(value[value.index(after: value.startIndex)..<close])
            let rest = value[value.index(after: close)...]
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()), !host.isEmpty else { return nil }
            return (host, port)
        }
        guard let colon = value.lastIndex(of: ":"), let port = UInt16(value[value.index(after: colon)...]) else {
            return nil
        }
        let host = String(value[..<colon])
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}
