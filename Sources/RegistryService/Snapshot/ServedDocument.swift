import Foundation
import RouteCore

/// A domain's current generated document exactly as stored in its latest revision: what the well-known
/// endpoints, `Associations.Get` and `Associations.Watch` serve.
public struct ServedDocument: Sendable, Hashable, Codable {
    public var host: String
    public var kind: DocumentKind
    public var revision: Int
    public var etag: String
    public var bytes: Data
    public var cause: String
    public var createTime: Date

    public init(
        host: String, kind: DocumentKind, revision: Int, etag: String, bytes: Data, cause: String, createTime: Date
    ) {
        self.host = host
        self.kind = kind
        self.revision = revision
        self.etag = etag
        self.bytes = bytes
        self.cause = cause
        self.createTime = createTime
    }
}
