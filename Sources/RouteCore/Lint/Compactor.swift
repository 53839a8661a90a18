import Foundation

/// Shrinks an AASA document without changing what iOS decides, for documents over Apple's size limit.
///
/// Steps, each kept only while needed: drop rules an earlier rule covers (which also merges exact
/// duplicates) and exclusions no claim follows; then drop comments. The result is checked with the matcher
/// against sample URLs of every original rule before it is used.
enum Compactor {
    /// `file` without rules that can never decide anything.
    static func dropUnreachable(_ file: AASAFile) -> AASAFile {
        var copy = file
        let defaults = file.applinks.defaults
        copy.applinks.details = file.applinks.details.map { detail in
            var detail = detail
            if let components = detail.components {
                var kept: [AASAComponent] = []
                var patterns: [ResolvedPattern] = []
                var coverage = CoverageIndex()
                for component in components {
                    let pattern = ResolvedPattern(component, defaults: defaults)
                    if coverage.firstCovering(pattern, in: patterns) != nil { continue }
                    coverage.insert(pattern, at: patterns.count)
                    kept.append(component)
                    patterns.append(pattern)
                }
                while let last = kept.last, last.isExclude { kept.removeLast() }
                detail.components = kept
            }
            if let paths = detail.paths {
                var seen = Set<String>()
                detail.paths = paths.filter { seen.insert($0).inserted }
            }
            return detail
        }
        return copy
    }

    /// `file` without `comment` keys.
    static func withoutComments(_ file: AASAFile) -> AASAFile {
        var copy = file
        copy.applinks.details = file.applinks.details.map { detail in
            var detail = detail
            detail.components = detail.components?.map(\.withoutComment)
            return detail
        }
        return copy
    }

    /// True when, for every app ID and every sample URL of every rule, both documents agree on whether
    /// iOS opens the app.
    static func equivalent(_ original: Data, _ compacted: Data, file: AASAFile, host: String) -> Bool {
        guard let before = try? AASADocument(json: original), let after = try? AASADocument(json: compacted) else {
            return false
        }
        let urls = sampleURLs(file, host: host)
        for appID in file.applinks.details.flatMap({ $0.appIDs ?? [] }) {
            for url in urls {
                guard let link = LinkURL(url) else { continue }
                // "exclude" and "no match" both keep the link in the browser.
                if (before.evaluate(appID: appID, url: link, domain: host).outcome == .match)
                    != (after.evaluate(appID: appID, url: link, domain: host).outcome == .match)
                {
                    return false
                }
            }
        }
        return true
    }

    /// URLs that exercise each rule: wildcards filled with text and with nothing, variables with a value.
    static func sampleURLs(_ file: AASAFile, host: String) -> [String] {
        let variables = file.applinks.substitutionVariables ?? [:]
        var urls: [String] = []
        for component in file.applinks.details.flatMap({ $0.components ?? [] }) {
            for fill in ["x", ""] {
                var url = "https://\(host)"
                let path = sample(component.path ?? "/", fill: fill, variables: variables)
                url += path.hasPrefix("/") ? path : "/" + path
                switch component.query {
                case nil: break
                case .string(let text)?: url += "?" + sample(text, fill: fill, variables: variables)
                case .items(let items)?:
                    url +=
                        "?"
                        + items.sorted { $0.key < $1.key }
                        .map { "\($0.key)=\(sample($0.value, fill: fill, variables: variables))" }
                        .joined(separator: "&")
                }
                if let fragment = component.fragment { url += "#" + sample(fragment, fill: fill, variables: variables) }
                urls.append(url)
            }
        }
        return urls
    }

    private static let builtinSamples = [
        "alpha": "a", "upper": "A", "lower": "a", "alnum": "a", "digit": "1", "xdigit": "f", "lang": "en",
        "region": "GB",
    ]

    private static func sample(_ pattern: String, fill: String, variables: [String: [String]]) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let first = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                let value = variables[name]?.first ?? builtinSamples[name] ?? ""
                out += sample(value, fill: fill, variables: [:])
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch first {
            case "*": out += fill
            case "?": out += "a"
            default: out.append(first)
            }
            rest = rest.dropFirst()
        }
        return out
    }
}
