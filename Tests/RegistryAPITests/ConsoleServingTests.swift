import Foundation
import RegistryAPI
import HTTPServing
import JSONRPC
import RegistryConsole
import Testing

/// The web console as `routereg serve` ships it: the embedded files over a real daemon, revalidated by
/// ETag, cached for a year under their versioned path, always under a strict Content-Security-Policy.
@Suite("Console serving")
final class ConsoleServingTests {
    let console = ConsoleDocuments(root: "/console")
    let server: TestServer

    init() throws { server = try TestServer(documents: console) }

    deinit { server.stop() }

    private func get(_ path: String, _ extra: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try server.client().request("GET", path, headers: [("Host", "registry.example.com")] + extra)
    }

    private func index() throws -> String {
        try get("/console/").text
    }

    /// The paths of the page's scripts, styles and icon, from its tags.
    private func assetPaths() throws -> [String] {
        let page = try index()
        let regex = try NSRegularExpression(pattern: #"(?:src|href)="(/console/v/[^"]+)""#)
        return regex.matches(in: page, range: NSRange(page.startIndex..., in: page)).map {
            String(page[Range($0.range(at: 1), in: page)!])
        }
    }

    @Test("the page answers at /console and /console/ with no-cache, an ETag and the strict CSP")
    func page() throws {
        for path in ["/console", "/console/"] {
            let response = try get(path)
            #expect(response.status == 200)
            #expect(response.header("content-type") == "text/html; charset=utf-8")
            #expect(response.header("cache-control") == "no-cache")
            #expect(response.header("content-security-policy") == ConsoleDocuments.contentSecurityPolicy)
            #expect(response.header("content-security-policy")?.hasPrefix("default-src 'self'") == true)
            #expect(response.header("x-content-type-options") == "nosniff")
            #expect(response.header("etag")?.hasPrefix("\"") == true)
            #expect(response.text.contains("/console/v/\(console.version)/app.js"))
            #expect(!response.text.contains("{{version}}"))
        }
    }

    @Test("a matching If-None-Match answers 304 without a body; another tag gets the page")
    func revalidation() throws {
        let etag = try #require(try get("/console/").header("etag"))
        let notModified = try get("/console/", [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("etag") == etag)
        #expect(try get("/console/", [("If-None-Match", "\"stale\"")]).status == 200)
    }

    @Test("every file the page loads is served under the version path, immutable for a year, by its type")
    func versionedAssets() throws {
        let paths = try assetPaths()
        #expect(paths.contains { $0.hasSuffix("/app.js") })
        #expect(paths.contains { $0.hasSuffix("/console.css") })
        for path in paths {
            let response = try get(path)
            #expect(response.status == 200, "\(path)")
            #expect(response.header("cache-control") == "public, max-age=31536000, immutable")
            #expect(response.header("content-security-policy") == ConsoleDocuments.contentSecurityPolicy)
            let etag = try #require(response.header("etag"))
            #expect(try get(path, [("If-None-Match", etag)]).status == 304)
        }
        #expect(
            try get("/console/v/\(console.version)/app.js").header("content-type") == "text/javascript; charset=utf-8")
        #expect(
            try get("/console/v/\(console.version)/console.css").header("content-type") == "text/css; charset=utf-8")
        // Modules import each other relatively: every module is there under the same version.
        for file in ConsoleFiles.all where file.name.hasSuffix(".js") {
            #expect(try get("/console/v/\(console.version)/\(file.name)").body == file.bytes)
        }
    }

    @Test("another version, a missing file or a path outside /console/ is not found")
    func notFound() throws {
        #expect(try get("/console/v/0000000000000000/app.js").status == 404)
        #expect(try get("/console/v/\(console.version)/missing.js").status == 404)
        #expect(try get("/console/app.js").status == 404)
        #expect(try get("/consolex").status == 404)
    }

    @Test("the version is a hash of the files: a changed file gets a new URL, the same files the same one")
    func versionFollowsContent() {
        let files: [(name: String, bytes: [UInt8])] = [
            ("index.html", Array("<script src=\"/console/v/{{version}}/app.js\"></script>".utf8)),
            ("app.js", Array("1".utf8)),
        ]
        let same = ConsoleDocuments(root: "/console", files: files)
        #expect(same.version == ConsoleDocuments(root: "/console", files: files).version)
        let changed = ConsoleDocuments(root: "/console", files: [files[0], ("app.js", Array("2".utf8))])
        #expect(changed.version != same.version)
        #expect(changed.document(path: "/console/v/\(changed.version)/app.js", host: "")?.bytes == Array("2".utf8))
        #expect(changed.document(path: "/console/v/\(same.version)/app.js", host: "") == nil)
    }

    /// Where the console's sources live in the repository.
    private static let filesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/RegistryConsole/Files").standardized

    @Test("ConsoleFiles lists every file of Sources/RegistryConsole/Files, byte for byte")
    func embeddedTableIsComplete() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.filesDirectory.path).sorted()
        #expect(ConsoleFiles.all.map(\.name).sorted() == names)
        for file in ConsoleFiles.all {
            let onDisk = try Data(contentsOf: Self.filesDirectory.appendingPathComponent(file.name))
            #expect(Array(onDisk) == file.bytes, "\(file.name)")
        }
    }

    @Test("the console is small, has no inline script and never parses text as HTML")
    func staticSafety() {
        let total = ConsoleFiles.all.reduce(0) { $0 + $1.bytes.count }
        #expect(total < 150_000, "the console's files add up to \(total) bytes")
        let page = String(decoding: ConsoleFiles.all.first { $0.name == "index.html" }!.bytes, as: UTF8.self)
        #expect(page.components(separatedBy: "<script").count == 2, "one script tag")
        #expect(page.contains("<script type=\"module\" src="))
        #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "no inline event handler")
        for file in ConsoleFiles.all where file.name.hasSuffix(".js") {
            let source = String(decoding: file.bytes, as: UTF8.self)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!source.contains(sink), "\(file.name) uses \(sink)")
            }
        }
    }
}
