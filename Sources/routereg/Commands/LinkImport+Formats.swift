import Foundation
import RouteCore

// Each shortener exports its own shape (CSV or JSON, flat or nested), so every record is first read into one
// flat dictionary with normalised keys (lower case, no `_`, `-` or spaces: `long_url`, `Long URL` and `longUrl`
// are all `longurl`), then mapped by the format's few keys. Detection looks at the keys of the first record
// and refuses to guess when more than one format fits.

extension LinkImport {
    /// The exports `link import` reads.
    enum Format: String, CaseIterable {
        case fdl, bitly, shlink, kutt, yourls

        /// Whether a record with these normalised keys looks like this format's.
        func fits(_ keys: Set<String>) -> Bool {
            switch self {
            case .fdl: keys.isSuperset(of: ["shorturl", "longlink"])
            case .bitly: keys.contains("longurl") && !keys.isDisjoint(with: ["link", "bitlink", "id"])
            case .shlink: keys.isSuperset(of: ["shortcode", "longurl"])
            case .kutt: keys.isSuperset(of: ["address", "target"])
            case .yourls: keys.contains("url") && !keys.isDisjoint(with: ["keyword", "shorturl"])
            }
        }
    }

    /// One record of the file: where it is (for messages) and its normalised fields.
    struct Record {
        var location: String
        var fields: [String: Any]

        func string(_ keys: String...) -> String? {
            for key in keys {
                switch fields[key] {
                case let text as String where !text.isEmpty: return text
                case let number as NSNumber: return number.stringValue
                default: continue
                }
            }
            return nil
        }
    }

    static func normalised(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// The file's records: a JSON array of objects, a JSON object holding one (Shlink's `shortUrls.data`,
    /// Kutt's `data`, YOURLS' `links`), or CSV with a header line (or FDL's two columns without one).
    static func records(_ data: Data) throws -> [Record] {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("[") || text.hasPrefix("{") else { return try csvRecords(text) }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
            throw CommandFailure("the file is not valid JSON: \(error.localizedDescription)")
        }
        var items: Any = json
        if let object = json as? [String: Any] {
            if let shlink = object["shortUrls"] {
                items = (shlink as? [String: Any])?["data"] ?? shlink
            } else if let data = object["data"] {
                items = data
            } else if let links = object["links"] as? [String: Any] {
                // YOURLS' stats API: {"links": {"link_1": {…}, "link_2": {…}}}, in that order.
                items = links.sorted { $0.key.count != $1.key.count ? $0.key.count < $1.key.count : $0.key < $1.key }
                    .map(\.value)
            } else {
                items = [object]
            }
        }
        guard let array = items as? [Any] else { throw CommandFailure("no list of links found in the JSON") }
        return try array.enumerated().map { index, item in
            guard let object = item as? [String: Any] else {
                throw CommandFailure("entry \(index + 1): not a JSON object")
            }
            var fields: [String: Any] = [:]
            for (key, value) in object {
                // One level of nesting is flattened (Shlink's `meta.validUntil`).
                if let nested = value as? [String: Any] {
                    for (inner, innerValue) in nested { fields[normalised(inner)] = innerValue }
                } else {
                    fields[normalised(key)] = value
                }
            }
            return Record(location: "entry \(index + 1)", fields: fields)
        }
    }

    private static func csvRecords(_ text: String) throws -> [Record] {
        let rows = try csvRows(text)
        guard let header = rows.first else { return [] }
        let names = header.fields.map(normalised)
        if !Format.allCases.contains(where: { $0.fits(Set(names)) }) {
            // FDL's own CSV: shortUrl,longLink without a header line.
            return try rows.map { row in
                guard row.fields.count == 2 else {
                    throw CommandFailure("line \(row.line): expected shortUrl,longLink or a header line")
                }
                return Record(
                    location: "line \(row.line)", fields: ["shorturl": row.fields[0], "longlink": row.fields[1]])
            }
        }
        return rows.dropFirst().map { row in
            var fields: [String: Any] = [:]
            // Empty cells are kept: detection reads the header's names, and `string` treats "" as absent.
            for (name, value) in zip(names, row.fields) { fields[name] = value }
            return Record(location: "line \(row.line)", fields: fields)
        }
    }

    /// The format of `records`: `given`, checked against the first record, or the one format that fits it.
    static func format(of records: [Record], given: String?) throws -> Format {
        let keys = Set(records.first?.fields.keys.map { $0 } ?? [])
        if let given {
            guard let format = Format(rawValue: given.lowercased()) else {
                throw UsageError("--from must be one of \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard records.isEmpty || format.fits(keys) else {
                throw CommandFailure(
                    "\(records[0].location): not a \(format.rawValue) record (fields: \(keys.sorted().joined(separator: ", ")))"
                )
            }
            return format
        }
        let fitting = Format.allCases.filter { $0.fits(keys) }
        guard fitting.count == 1 else {
            throw CommandFailure(
                fitting.isEmpty
                    ? "cannot tell which shortener the file comes from; say --from fdl|bitly|shlink|kutt|yourls"
                    : "the file could be \(fitting.map(\.rawValue).joined(separator: " or ")); say which with --from")
        }
        return fitting[0]
    }

    /// The links a record stands for (a Bitly link with custom back-halves is one link per short URL).
    static func links(_ record: Record, format: Format, domain: String) throws -> [ShortLink] {
        let at = record.location
        if format == .fdl {
            guard let short = record.string("shorturl"), let long = record.string("longlink") else {
                throw CommandFailure("\(at): shortUrl and longLink are required")
            }
            return [try link(Entry(shortUrl: short, longLink: long), domain: domain, location: at)]
        }
        let target: String?
        var codes: [String?]
        var title: String?
        var expires: String?
        var maxClicks: Int?
        switch format {
        case .bitly:
            target = record.string("longurl")
            codes = [record.string("link", "bitlink", "id").map(code(of:))]
            codes += list(record.fields["custombitlinks"]).map(code(of:))
            title = record.string("title")
        case .shlink:
            target = record.string("longurl")
            codes = [record.string("shortcode")]
            title = record.string("title")
            expires = record.string("validuntil")
            if let visits = record.string("maxvisits") {
                guard let count = Int(visits), count > 0 else {
                    throw CommandFailure("\(at): maxVisits \(visits) is not a positive whole number")
                }
                maxClicks = count
            }
        case .kutt:
            target = record.string("target")
            codes = [record.string("address")]
            title = record.string("description")
            expires = record.string("expirein")
        case .yourls, .fdl:
            target = record.string("url")
            codes = [record.string("keyword") ?? record.string("shorturl").map(code(of:))]
            title = record.string("title")
        }
        guard let target else { throw CommandFailure("\(at): the long URL is missing") }
        var seen: Set<String> = []
        let unique = codes.compactMap { $0 }.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { throw CommandFailure("\(at): the short code is missing") }
        let (kept, utm) = campaignSplit(target)
        let tags = list(record.fields["tags"]).map { String($0.map { $0.isWhitespace ? "-" : $0 }) }
        let expiresAt = try expires.map { try timestamp($0, at: at) }
        return unique.map { code in
            ShortLink(
                domain: domain, code: code, target: kept, preview: title.map { LinkPreview(title: $0) },
                expiresAt: expiresAt, utm: utm, tags: tags.isEmpty ? nil : tags, maxClicks: maxClicks)
        }
    }

    /// A short URL's code: its last path segment (`https://bit.ly/3xYz` and `bit.ly/3xYz` → `3xYz`); a value
    /// without `/` is the code itself.
    static func code(of shortURL: String) -> String {
        String(shortURL.split(separator: "/").last ?? Substring(shortURL))
    }

    /// A list field: a JSON array, or text split at `|`, `,` and `;` (Shlink's CSV joins tags with `|`).
    static func list(_ value: Any?) -> [String] {
        let items: [String]
        switch value {
        case let array as [Any]: items = array.compactMap { $0 as? String }
        case let text as String: items = text.split(whereSeparator: { "|,;".contains($0) }).map(String.init)
        default: items = []
        }
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The long URL without its `utm_*` query items, and those items as the link's campaign: the registry adds
    /// them to every web destination itself and keeps them off the deep link.
    static func campaignSplit(_ url: String) -> (String, LinkCampaign?) {
        guard var components = URLComponents(string: url), let items = components.percentEncodedQueryItems,
            items.contains(where: { $0.name.hasPrefix("utm_") })
        else { return (url, nil) }
        var utm = LinkCampaign()
        var rest: [URLQueryItem] = []
        for item in items {
            let value = item.value.flatMap { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            switch item.name {
            case "utm_source": utm.source = value
            case "utm_medium": utm.medium = value
            case "utm_campaign": utm.campaign = value
            case "utm_term": utm.term = value
            case "utm_content": utm.content = value
            default: rest.append(item)
            }
        }
        components.percentEncodedQueryItems = rest.isEmpty ? nil : rest
        return (components.string ?? url, utm.isEmpty ? nil : utm)
    }

    /// An export's expiry as RFC 3339 in UTC (`2026-12-31T23:59:59Z`): offsets and fractions are accepted.
    static func timestamp(_ text: String, at location: String) throws -> String {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
            throw CommandFailure("\(location): expiry \(text) is not an RFC 3339 time (2026-12-31T23:59:59Z)")
        }
        return plain.string(from: date)
    }
}
