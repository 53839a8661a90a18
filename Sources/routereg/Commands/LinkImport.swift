import Foundation
import RouteCore
import RouteRegistryClient

/// `routereg link import FILE --app APP [--from FORMAT]`: moves short links over from Firebase Dynamic Links,
/// Bitly, Shlink, Kutt or YOURLS, keeping their codes, in one write: all of the file's links are created or none
/// is, and running the same import again changes nothing (its `requestId` is derived from what it creates).
enum LinkImport {
    static let spec = CommandSpec(
        ["link", "import"], summary: "import short links from FDL, Bitly, Shlink, Kutt or YOURLS keeping their codes",
        details: """
            FILE is an export of another shortener (--from, detected from the fields when only one fits):
              fdl     CSV shortUrl,longLink (header optional) or JSON [{"shortUrl", "longLink"}]
              bitly   CSV or JSON: link (or bitlink, id), long_url, title, tags, custom_bitlinks
              shlink  REST API JSON (shortUrls) or CSV: shortCode, longUrl, title, tags, validUntil, maxVisits
              kutt    API JSON (data): address, target, description, expire_in
              yourls  table export (CSV or JSON) or stats API JSON: keyword (or shorturl), url, title
            Codes are kept; title becomes the preview title, tags the tags (spaces become -), the expiry
            expiresAt, maxVisits maxClicks, and the long URL's utm_* items the link's campaign (taken off the
            target). Every target is checked as any link's: on the app's own domains only, so an export whose
            long URLs point elsewhere is refused, naming the line; so is a code the registry cannot hold. The
            import is one Links.BatchCreate call per 1,000 links, in the file's order: each all or nothing, and
            idempotent (its requestId is a hash of the app and its links), so running the same import again with
            the same token creates nothing twice. When a call is refused, the calls before it stay imported and
            the message says up to which line: fix the line and run the same import again to go on from there.
            A code given twice in the file is refused before anything is sent. Links go on --domain (default:
            the app's first link domain).
            """,
        positionals: [PositionalSpec(name: "FILE", summary: "the CSV or JSON file (- for stdin)")],
        flags: [
            .value("app", "APP", "the app the links open (required)"),
            LinkCommands.domainFlag,
            .value("from", "FORMAT", "fdl, bitly, shlink, kutt or yourls (default: detected)"),
            .bool("dry-run", "read the file and show what would be created, create nothing"),
        ],
        examples: [
            "link import fdl-links.csv --app badoo --domain go.badoo.com",
            "link import bitly-export.csv --app badoo --from bitly",
        ],
        action: .run(run))

    struct Entry: Decodable {
        var shortUrl: String
        var longLink: String
    }

    static func run(_ run: Invocation) throws {
        guard let app = run.arguments.value("app") else {
            throw UsageError("missing flag --app APP for 'routereg link import'")
        }
        let domain = run.arguments.value("domain") ?? ""
        let records = try records(try readInput(file: run.argument(0)))
        let format = try format(of: records, given: run.arguments.value("from"))
        var links: [ShortLink] = []
        var locations: [String] = []
        for record in records {
            let made = try self.links(record, format: format, domain: domain)
            links += made
            locations += Array(repeating: record.location, count: made.count)
        }
        guard !links.isEmpty else { throw CommandFailure("the file holds no links") }
        try refuseRepeatedCodes(links, locations: locations)
        if run.arguments.bool("dry-run") {
            for link in links { run.print("\(link.code) → \(link.target)") }
            return run.print("\(links.count) link(s) from \(format.rawValue) would be imported (dry run)")
        }
        let size = API.LinksBatchCreate.maxLinks
        var imported = 0
        for start in stride(from: 0, to: links.count, by: size) {
            let chunk = Array(links[start..<min(links.count, start + size)])
            let at = Array(locations[start..<min(links.count, start + size)])
            let input = WriteRequest(
                API.LinksBatchCreate.Params(app: app, links: chunk), requestID: try requestID(app: app, links: chunk))
            do {
                imported += try run.call(API.LinksBatchCreate.self, input).0.links.count
            } catch let error as RegistryError {
                throw CommandFailure(refusal(error, locations: at, links: chunk, importedBefore: imported))
            } catch let error as ClientError where !error.isConnectionProblem {
                throw CommandFailure(refusal(error, locations: at, links: chunk, importedBefore: imported))
            }
        }
        let writes = (links.count + size - 1) / size
        run.print(
            "Imported \(imported) link(s) from \(format.rawValue) into \(app)"
                + (writes > 1 ? " in \(writes) writes" : "") + ", codes kept.")
    }

    /// A code on one domain twice in the file: refused naming both places, before anything is sent (within
    /// one call the server refuses it too, but across calls the second would fail only after the first
    /// was imported).
    static func refuseRepeatedCodes(_ links: [ShortLink], locations: [String]) throws {
        var first: [String: Int] = [:]
        for (index, link) in links.enumerated() where !link.code.isEmpty {
            let key = "\(link.domain.lowercased())/\(link.code)"
            if let earlier = first[key] {
                throw CommandFailure(
                    "\(locations[index]) (code \(link.code)): code is already on \(locations[earlier]); "
                        + "nothing was imported")
            }
            first[key] = index
        }
    }

    /// The import's idempotency key: `import-` and 40 hex digits of the SHA-256 of the app and the links as
    /// sent, so the same file (in any of its formats) imports once, and a changed one is a new import.
    static func requestID(app: String, links: [ShortLink]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array(app.utf8) + [0] + Array(try encoder.encode(links))
        return "import-" + SHA256.hex(SHA256.digest(bytes)).prefix(40)
    }

    /// The server's refusal of one call, naming the file's line for a field of `links[i]`, and what the calls
    /// before it imported (`importedBefore` links). The field comes from the error's field violations, or from
    /// a schema refusal's message (`links[3].code: must …`).
    static func refusal(_ error: any Error, locations: [String], links: [ShortLink], importedBefore: Int = 0)
        -> String
    {
        let outcome =
            importedBefore == 0
            ? "nothing was imported"
            : "the \(importedBefore) link(s) before \(locations.first ?? "it") were imported, none from there on; "
                + "run the same import again once it is fixed to go on (those are not created twice)"
        var named: [(field: String, reason: String)] = []
        if let registry = error as? RegistryError {
            named = registry.fieldViolations.map { ($0.field, $0.description) }
        } else if case .protocolError(_, let message) = error as? ClientError, let start = message.range(of: "links[") {
            let rest = message[start.lowerBound...]
            let colon = rest.range(of: ": ")
            named = [
                (
                    String(rest[..<(colon?.lowerBound ?? rest.endIndex)]),
                    colon.map { String(rest[$0.upperBound...]) } ?? ""
                )
            ]
        }
        for (field, reason) in named {
            guard field.hasPrefix("links["), let close = field.firstIndex(of: "]"),
                let index = Int(field[field.index(field.startIndex, offsetBy: 6)..<close]),
                locations.indices.contains(index)
            else { continue }
            let rest = field[field.index(after: close)...].drop { $0 == "." }
            return "\(locations[index]) (code \(links[index].code)): \(rest.isEmpty ? "link" : String(rest)) "
                + "\(reason); \(outcome)"
        }
        return "\(error); \(outcome)"
    }

    /// The link an entry stands for.
    static func link(_ entry: Entry, domain: String, location: String) throws -> ShortLink {
        guard let short = URLComponents(string: entry.shortUrl), let code = short.path.split(separator: "/").last
        else { throw CommandFailure("\(location): \(entry.shortUrl) is not a short URL") }
        guard let query = URLComponents(string: entry.longLink)?.percentEncodedQuery,
            let long = FDLLongLink(query: query),
            let target = long.link
        else { throw CommandFailure("\(location): \(entry.longLink) is not a long link with link=…") }
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
