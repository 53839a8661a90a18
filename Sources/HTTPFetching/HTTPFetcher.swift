import CCurl
import Foundation
import Synchronization

/// One outgoing HTTP GET (or POST) with everything bounded: a deadline for the whole exchange (connect, TLS, headers,
/// body), a size limit on the body (the transfer is cut as soon as it is passed, so a 10 MB answer costs at most
/// the limit), and redirects returned as they came, never followed (Apple's crawler follows none, and a watcher
/// that followed them would observe something other than what it asked for).
///
/// libcurl's easy interface (Debian's libcurl, through the `CCurl` system-library target): no HTTP parser of
/// our own. Calls block the calling thread until the answer or the deadline, so run them on a thread of your
/// own, never on the cooperative pool. One handle per call: calls on many threads at once are safe.
public final class HTTPFetcher: Sendable {
    /// What to fetch.
    public struct Request: Sendable {
        public var url: URL
        /// Extra request headers (`If-None-Match`, `If-Modified-Since`, `Accept`).
        public var headers: [String: String]
        /// The whole exchange ends by then.
        public var timeout: Duration
        /// Bodies longer than this are not read past it: the fetch fails `tooLarge`.
        public var maxBytes: Int
        /// Trust these CA certificates (a PEM file) instead of the system's.
        public var caFile: String?
        /// Connect to this address (`127.0.0.1:8443`) for the URL's host and port, keeping the host for TLS
        /// (SNI, certificate check) and `Host`: how a check is pointed at a local origin.
        public var connectTo: String?
        /// Asked while the transfer runs (a few times a second): true abandons it (`Failure.cancelled`), so a
        /// server stopping does not wait out a slow answer.
        public var isCancelled: (@Sendable () -> Bool)?
        /// POSTed with this body (set `Content-Type` in `headers`); nil: a GET.
        public var body: Data?
        /// Refuse to connect to loopback, private, link-local and other internal addresses, checked on the
        /// address libcurl is about to connect to (so a public name resolving inside is refused too).
        public var publicAddressesOnly: Bool

        public init(
            url: URL, headers: [String: String] = [:], timeout: Duration, maxBytes: Int, caFile: String? = nil,
            connectTo: String? = nil, isCancelled: (@Sendable () -> Bool)? = nil, body: Data? = nil,
            publicAddressesOnly: Bool = false
        ) {
            self.body = body
            self.publicAddressesOnly = publicAddressesOnly
            self.url = url
            self.headers = headers
            self.timeout = timeout
            self.maxBytes = maxBytes
            self.caFile = caFile
            self.connectTo = connectTo
            self.isCancelled = isCancelled
        }
    }

    /// A complete answer (any status: a 3xx is returned as it came, not followed).
    public struct Response: Sendable {
        public var status: Int
        /// Header names lower-cased.
        public var headers: [String: String]
        public var body: Data

        public init(status: Int, headers: [String: String], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A header by its name, in any case.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// Why no complete answer came.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The deadline passed first.
        case timeout
        /// The body (or its declared length) exceeded the limit; the status that came with it.
        case tooLarge(status: Int, limit: Int)
        /// Connection, TLS or protocol failure, in libcurl's words for its error code (no host or address).
        case network(String)
        /// `isCancelled` said so.
        case cancelled

        public var description: String {
            switch self {
            case .timeout: return "no complete answer before the deadline"
            case .tooLarge(_, let limit): return "the body exceeds \(limit) bytes"
            case .network(let text): return text
            case .cancelled: return "cancelled"
            }
        }
    }

    private let userAgent: String

    /// - Parameter userAgent: sent with every request.
    public init(userAgent: String = "routereg") {
        self.userAgent = userAgent
        _ = Self.globalInit
    }

    /// libcurl's process-wide initialisation, once, before any handle (it is not thread-safe itself).
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Fetches `request.url` with GET, or POSTs `request.body`; blocks until the answer, the size limit or the
    /// deadline.
    public func get(_ request: Request) -> Result<Response, Failure> {
        guard let handle = curl_easy_init() else { return .failure(.network("cannot create a transfer")) }
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }

        let milliseconds = max(
            1,
            Int(request.timeout.components.seconds) * 1000
                + Int(request.timeout.components.attoseconds / 1_000_000_000_000_000))
        let sink = Sink(limit: request.maxBytes, isCancelled: request.isCancelled)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var ok = true
        func set(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        set(routereg_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString))
        if let body = request.body {
            // COPYPOSTFIELDS copies the bytes: the buffer need not outlive this call. An empty body is one NUL
            // byte sent as zero bytes.
            let bytes = body.isEmpty ? [CChar(0)] : body.map { CChar(bitPattern: $0) }
            set(bytes.withUnsafeBufferPointer { routereg_curl_set_post_body(handle, $0.baseAddress, body.count) })
        } else {
            set(routereg_curl_set_long(handle, CURLOPT_HTTPGET, 1))
        }
        if request.publicAddressesOnly { set(routereg_curl_public_addresses_only(handle)) }
        set(routereg_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(routereg_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        set(routereg_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds))
        set(routereg_curl_set_long(handle, CURLOPT_MAXFILESIZE, request.maxBytes))
        set(routereg_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(routereg_curl_set_string(handle, CURLOPT_USERAGENT, userAgent))
        if let caFile = request.caFile { set(routereg_curl_set_string(handle, CURLOPT_CAINFO, caFile)) }
        if let connectTo = request.connectTo, let host = request.url.host {
            let port = request.url.port ?? (request.url.scheme == "https" ? 443 : 80)
            // CONNECT_TO "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT": TLS and Host stay the URL's.
            resolveList = curl_slist_append(resolveList, "\(host):\(port):\(connectTo)")
            set(routereg_curl_set_list(handle, CURLOPT_CONNECT_TO, resolveList))
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        if let headerList { set(routereg_curl_set_list(handle, CURLOPT_HTTPHEADER, headerList)) }
        set(routereg_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, Sink.bodyCallback))
        set(routereg_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        set(routereg_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, Sink.headerCallback))
        set(routereg_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        if request.isCancelled != nil {
            set(routereg_curl_set_long(handle, CURLOPT_NOPROGRESS, 0))
            set(routereg_curl_set_progress(handle, Sink.progressCallback))
            set(routereg_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context))
        }
        guard ok else { return .failure(.network("the transfer could not be configured")) }

        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        var status = 0
        routereg_curl_response_code(handle, &status)
        switch code {
        case CURLE_OK:
            return .success(Response(status: status, headers: sink.headers, body: sink.body))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timeout)
        case CURLE_ABORTED_BY_CALLBACK:
            return .failure(.cancelled)
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge(status: status, limit: request.maxBytes))
        case CURLE_WRITE_ERROR where sink.overflowed:
            return .failure(.tooLarge(status: status, limit: request.maxBytes))
        default:
            return .failure(.network(String(cString: curl_easy_strerror(code))))
        }
    }

    /// Collects one transfer's headers and body; used by libcurl's callbacks on the calling thread only.
    /// `@unchecked Sendable` is not needed: it never leaves the call.
    private final class Sink {
        let limit: Int
        var body = Data()
        var headers: [String: String] = [:]
        var overflowed = false
        let isCancelled: (@Sendable () -> Bool)?

        init(limit: Int, isCancelled: (@Sendable () -> Bool)?) {
            self.limit = limit
            self.isCancelled = isCancelled
        }

        static let progressCallback: routereg_curl_progress_callback = { context, _, _, _, _ in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            return sink.isCancelled?() == true ? 1 : 0
        }

        static let bodyCallback: routereg_curl_data_callback = { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard sink.body.count + length <= sink.limit else {
                sink.overflowed = true
                return 0  // libcurl stops the transfer (CURLE_WRITE_ERROR)
            }
            if let data, length > 0 {
                sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            }
            return length
        }

        static let headerCallback: routereg_curl_data_callback = { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let data else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                sink.headers = [:]  // a new response (after 100 Continue, say): only the last one's headers
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                sink.headers[name] = value
            }
            return length
        }
    }
}
