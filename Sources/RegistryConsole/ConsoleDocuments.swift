import Foundation
import HTTPServing
import RouteCore

/// The web console, served from memory where the server mounts it (`RegistryRoutes`: `/console`).
///
/// The page (`{mount}/` and `{mount}`) is always revalidated (`no-cache` + ETag), so a new binary's console
/// is seen on the next load. Every other file is served under `/console/v/{version}/`, where `version` is a
/// hash of all of them: those URLs never change meaning, so browsers keep them for a year without asking.
/// Every answer carries a strict Content-Security-Policy: only this origin's scripts, styles and `/rpc`.
public final class ConsoleDocuments: StaticDocumentProvider {
    /// The path every console URL starts with.
    public let root: String
    /// `default-src 'self'`, and nothing inline: user text rendered by mistake as HTML still runs nothing.
    public static let contentSecurityPolicy =
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"
    /// How long versioned files may be cached: a year, never revalidated.
    public static let immutableCacheControl = "public, max-age=31536000, immutable"

    /// The hash naming this build's files (the `{version}` in their URLs).
    public let version: String
    private let documents: [String: StaticDocument]

    /// - Parameters:
    ///   - root: where the server mounts the console; the page's own links name it.
    ///   - files: the console's files by name; `index.html` is the page, and its `{{root}}` and `{{version}}`
    ///     placeholders become `root` and `version`.
    public init(root: String, files: [(name: String, bytes: [UInt8])] = ConsoleFiles.all) {
        self.root = root
        let assets = files.filter { $0.name != "index.html" }.sorted { $0.name < $1.name }
        var hashed: [UInt8] = []
        for asset in assets {
            hashed += Array(asset.name.utf8) + [0] + SHA256.digest(asset.bytes)
        }
        version = String(SHA256.hex(hashed).prefix(16))
        var documents: [String: StaticDocument] = [:]
        for asset in assets {
            documents["\(root)/v/\(version)/\(asset.name)"] = Self.document(
                asset.bytes, name: asset.name, cacheControl: Self.immutableCacheControl)
        }
        if let page = files.first(where: { $0.name == "index.html" }) {
            let text = String(decoding: page.bytes, as: UTF8.self)
                .replacingOccurrences(of: "{{root}}", with: root)
                .replacingOccurrences(of: "{{version}}", with: version)
            let index = Self.document(Array(text.utf8), name: page.name, cacheControl: "no-cache")
            documents[root] = index
            documents[root + "/"] = index
            documents[root + "/index.html"] = index
        }
        self.documents = documents
    }

    public func document(path: String, host: String) -> StaticDocument? {
        guard path.hasPrefix(root) else { return nil }
        return documents[path]
    }

    private static func document(_ bytes: [UInt8], name: String, cacheControl: String) -> StaticDocument {
        StaticDocument(
            bytes: bytes, contentType: contentType(of: name), etag: String(SHA256.hex(bytes).prefix(32)),
            cacheControl: cacheControl,
            headers: [
                ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
            ])
    }

    /// The `Content-Type` of a console file, from its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
