import Foundation
import RouteMatching

/// A canOpen table with its ETag as kept on disk: the store's cache file and the file bundled into the
/// app at build time share this format, which is also the result of `CanOpen.GetTable`
/// (`{"etag", "table", …}`), so `routereg canopen-table … > CanOpenTable.json` can be bundled as is.
struct CanOpenTableFile: Codable, Sendable {
    var etag: String
    var table: CanOpenTable

    /// Reads `url`, which holds either this format or a bare table (whose ETag is then computed as the
    /// server computes it). Nil when the file is missing or is not a table.
    static func read(_ url: URL) -> CanOpenTableFile? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        if let file = try? decoder.decode(CanOpenTableFile.self, from: data) { return file }
        guard let table = try? decoder.decode(CanOpenTable.self, from: data),
            let etag = try? table.file().etag
        else { return nil }
        return CanOpenTableFile(etag: etag, table: table)
    }

    /// Writes the file atomically (a reader never sees half a table), creating its directory.
    func write(to url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try CanonicalJSON.encode(self).write(to: url, options: .atomic)
    }

    /// True when the table was made for exactly this app version: a table of another version has other
    /// verdicts, and would open links this version cannot handle.
    func matches(app: String, platform: Platform, version: Version) -> Bool {
        table.app == app && table.platform == platform && table.version == version
    }

    /// The cache file's name for an app and platform, safe for any app ID.
    static func cacheFileName(app: String, platform: Platform) -> String {
        let safe = String(
            app.unicodeScalars.map { scalar -> Character in
                let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                return allowed || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
            })
        return "canopen-\(safe)-\(platform.rawValue).json"
    }
}
