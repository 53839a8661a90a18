/// A document served from memory on a plain GET (an apple-app-site-association or assetlinks file, a file
/// of the web console).
///
/// Both answers (200 with the bytes, 304 without) are built once, when the document is made, and reused for
/// every request: serving costs no allocation and no copy. Build a new document when the bytes change.
public final class StaticDocument: Sendable {
    /// The body.
    public let bytes: [UInt8]
    /// The `Content-Type` header.
    public let contentType: String
    /// The strong entity tag, quotes included (`"abc123"`).
    public let etag: String
    /// The `Cache-Control` header, if any (`public, max-age=300`).
    public let cacheControl: String?

    let full: SharedResponse?
    let notModified: SharedResponse?

    /// - Parameters:
    ///   - etag: the tag with or without its surrounding quotes; it is stored quoted.
    ///   - headers: more headers of the 200 answer (a `Content-Security-Policy`), not repeated on a 304.
    public init(
        bytes: [UInt8], contentType: String, etag: String, cacheControl: String? = nil,
        headers extraHeaders: [(String, String)] = []
    ) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag.hasPrefix("\"") || etag.hasPrefix("W/\"") ? etag : "\"\(etag)\""
        self.cacheControl = cacheControl
        var headers = [("ETag", self.etag)]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        full = SharedResponse(body: bytes, headers: headers + [("Content-Type", contentType)] + extraHeaders)
        notModified = SharedResponse(body: [], headers: headers)
    }

    /// Whether an `If-None-Match` header value matches this document (weak comparison, RFC 9110 §13.1.2).
    public func matches(ifNoneMatch header: String) -> Bool {
        EntityTag.list(header, matches: etag)
    }
}

/// What a plain GET path names: a document, or an HTTP error with its reason as the body (404 for nothing
/// there, 400 for a malformed part of the path, so the caller sees which part is wrong).
public enum DocumentLookup: Sendable {
    case document(StaticDocument)
    case refused(status: Int, reason: String)

    public static let notFound = DocumentLookup.refused(status: 404, reason: "not found\n")
}

/// Supplies the documents served on plain GETs; the registry implements it over its current snapshot.
public protocol StaticDocumentProvider: Sendable {
    /// The current document for `path` on `host`, or nil (the server answers 404).
    ///
    /// - Parameters:
    ///   - path: the request path without query (`/.well-known/apple-app-site-association`).
    ///   - host: the normalized `Host` header: lower-cased, port and trailing dot removed, IPv6 literal
    ///     without brackets; empty when the request has no `Host`.
    func document(path: String, host: String) -> StaticDocument?

    /// The answer for `path` on `host`, with a reason when there is no document.
    func lookup(path: String, host: String) -> DocumentLookup
}

extension StaticDocumentProvider {
    /// The answer for `path`: by default `document(path:host:)`, nil being a plain 404. Providers whose
    /// paths carry parameters override it to say what is wrong with them.
    public func lookup(path: String, host: String) -> DocumentLookup {
        document(path: path, host: host).map { .document($0) } ?? .notFound
    }
}

extension StaticDocument {
    /// The answer to a GET or HEAD of this document: its prebuilt 304 when `If-None-Match` matches, else its
    /// prebuilt 200; a 500 (counted) when libmicrohttpd refused to build them.
    public func response(to request: HTTPRequest) -> HTTPResponse {
        if let header = request.header("If-None-Match"), matches(ifNoneMatch: header) {
            if let shared = notModified { return HTTPResponse(status: 304, shared: shared) }
        } else if let shared = full {
            return HTTPResponse(status: 200, shared: shared)
        }
        request.responseFailed()
        return .internalError
    }
}

extension DocumentLookup {
    /// The document's answer, or the refusal as plain text (its metrics label then `other`).
    public func response(to request: HTTPRequest) -> HTTPResponse {
        switch self {
        case .document(let document): return document.response(to: request)
        case .refused(let status, let reason):
            request.handlerLabel = "other"
            return .text(status, reason)
        }
    }

    /// A responder serving what `provider` finds at the request's path and host.
    public static func responder(_ provider: any StaticDocumentProvider) -> HTTPResponder {
        { request in .respond(provider.lookup(path: request.path, host: request.host).response(to: request)) }
    }
}
