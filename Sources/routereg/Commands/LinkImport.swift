import Foundation
import RouteCore

/// `routereg link import FILE --app APP`: moves Firebase Dynamic Links over, keeping their codes. Each entry
/// is a short URL (its last path segment becomes the code) and the FDL long link it stood for (its `link`,
/// `imv`/`ifl`, `amv`/`afl`, `ofl`, `st`/`sd`/`si` and `efr` become the link's target and options).
enum LinkImport {
    static let spec = CommandSpec(
        ["link", "import"], summary: "import short links (FDL short URL + long link) keeping their codes",
        details: """
            FILE is CSV (shortUrl,longLink per line; a header line is skipped) or JSON ([{"shortUrl": …,
            "longLink": …}]). Links are created on --domain (default: the app's first link domain) in batches of
            1,000 (Links.BatchCreate: a batch the server refuses creates none of its links, and the command stops
            there, saying which). Every target is checked as any link's: on the app's own domains only.
            """,
        positionals: [PositionalSpec(name: "FILE", summary: "the CSV or JSON file (- for stdin)")],
        flags: [
            .value("app", "APP", "the app the links open (required)"),
            LinkCommands.domainFlag,
            .bool("dry-run", "read the file and show what would be created, create nothing"),
        ],
        examples: ["link import fdl-links.csv --app badoo --domain go.badoo.com"],
        action: .run(run))

    struct Entry: Decodable {
        var shortUrl: String
        var longLink: String
    }

    static func run(_ run: Invocation) throws {
        guard let app = run.arguments.value("app") else {
            throw UsageError("missing flag --app APP for 'routereg link import'")
        }
        let data = try readInput(file: run.argument(0))
        let links = try entries(data).enumerated().map { index, entry in
            try link(entry, domain: run.arguments.value("domain") ?? "", line: index + 1)
        }
        if run.arguments.bool("dry-run") {
            for link in links { run.print("\(link.code) → \(link.target)") }
            return run.print("\(links.count) link(s) would be imported (dry run)")
        }
        var created = 0
        for start in stride(from: 0, to: links.count, by: API.LinksBatchCreate.maxLinks) {
            let batch = Array(links[start..<min(links.count, start + API.LinksBatchCreate.maxLinks)])
            do {
                let (result, _) = try run.call(API.LinksBatchCreate.self, WriteRequest(.init(app: app, links: batch)))
                created += result.links.count
            } catch {
                throw CommandFailure(
                    "entries \(start + 1)–\(start + batch.count) were refused (\(error)); \(created) imported before them"
                )
            }
        }
        run.print("Imported \(created) link(s) into \(app), codes kept.")
    }

    /// The file's entries, CSV or JSON.
    static func entries(_ data: Data) throws -> [Entry] {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("[") {
            do { return try JSONDecoder().decode([Entry].self, from: Data(text.utf8)) } catch {
                throw CommandFailure("not a JSON array of {\"shortUrl\", \"longLink\"}: \(error)")
            }
        }
        var out: [Entry] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if number == 0, fields.first?.lowercased() == "shorturl" { continue }
            guard fields.count == 2 else { throw CommandFailure("line \(number + 1): expected shortUrl,longLink") }
            out.append(Entry(shortUrl: fields[0], longLink: fields[1]))
        }
        return out
    }

    /// The link an entry stands for.
    static func link(_ entry: Entry, domain: String, line: Int) throws -> ShortLink {
        guard let short = URLComponents(string: entry.shortUrl), let code = short.path.split(separator: "/").last
        else { throw CommandFailure("entry \(line): \(entry.shortUrl) is not a short URL") }
        guard let query = URLComponents(string: entry.longLink)?.percentEncodedQuery,
            let long = FDLLongLink(query: query),
            let target = long.link
        else { throw CommandFailure("entry \(line): \(entry.longLink) is not a long link with link=…") }
        func options(_ minimum: String?, _ fallback: String?) -> LinkPlatformOptions? {
            minimum == nil && fallback == nil ? nil : LinkPlatformOptions(minVersion: minimum, fallbackUrl: fallback)
        }
        let preview = LinkPreview(title: long.st, description: long.sd, imageUrl: long.si)
        return ShortLink(
            domain: domain, code: String(code), target: target, desktopUrl: long.ofl,
            preview: preview == LinkPreview() ? nil : preview, ios: options(long.imv, long.ifl),
            android: options(long.amv, long.afl), skipLanding: long.efr ? true : nil)
    }
}
