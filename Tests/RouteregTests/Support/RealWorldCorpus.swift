import Foundation
import RouteCore

/// The real-world AASA and assetlinks files in `../shared/realworld/` (beside the repository; never copied into
/// it: they are other projects' data), and the URLs their own rules suggest.
enum RealWorldCorpus {
    /// `../shared/realworld` relative to the repository root, nil when absent (a clone with nothing beside it).
    static let directory: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.deletingLastPathComponent().appendingPathComponent("shared/realworld")
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent("aasa").path) ? directory : nil
    }()

    static let skipMessage = "skipped: ../shared/realworld is absent"

    /// The `.json` files of `folder` (`aasa`, `aasa-invalid`, `assetlinks`), sorted by name.
    static func files(_ folder: String) throws -> [URL] {
        guard let directory else { return [] }
        let folderURL = directory.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: folderURL.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { folderURL.appendingPathComponent($0) }
    }

    /// A test host per file: the real hosts are not ours, and several files' hosts are unknown.
    static func host(_ file: URL) -> String { "\(name(file)).example.com" }

    static func name(_ file: URL) -> String { file.deletingPathExtension().lastPathComponent }

    /// URLs on `host` derived from every rule of every detail: each rule instantiated (`*` as `demo`, a
    /// whole-path `*` as `/some/page`, `?` as `1`, variables as a value of theirs) with its query and fragment;
    /// for a rule with a query or fragment, the same path without them too (the rule must then not decide);
    /// the first open path upper-cased (case probe); `/`; and an unrelated path. Deduplicated, in order;
    /// text `LinkURL` refuses is left out.
    static func urls(_ document: AASADocument, host: String) -> [String] {
        var urls: [String] = []
        var casedProbe: String?
        for detail in document.details {
            for rule in detail.rules {
                let path = instantiate(path: rule.path ?? "/demo")
                var suffix = ""
                switch rule.query {
                case .string(let text)?: suffix += "?" + instantiate(text)
                case .items(let items)?:
                    let pairs = items.keys.sorted().map { "\($0)=\(instantiate(items[$0]!))" }
                    if !pairs.isEmpty { suffix += "?" + pairs.joined(separator: "&") }
                case nil: break
                }
                if let fragment = rule.fragment { suffix += "#" + instantiate(fragment) }
                urls.append("https://\(host)\(path)\(suffix)")
                if !suffix.isEmpty { urls.append("https://\(host)\(path)") }
                if casedProbe == nil, !rule.exclude, rule.path != nil, path.uppercased() != path {
                    casedProbe = "https://\(host)\(path.uppercased())"
                }
            }
        }
        urls += [casedProbe, "https://\(host)/", "https://\(host)/zz-unrelated/page"].compactMap { $0 }
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted && LinkURL($0) != nil }
    }

    private static func instantiate(path pattern: String) -> String {
        if pattern.allSatisfy({ $0 == "*" }) && !pattern.isEmpty { return "/some/page" }
        let text = instantiate(pattern)
        return text.hasPrefix("/") ? text : "/" + text
    }

    /// `*` → `demo`, `?` → `1`, `$(name)` → a value the variable accepts.
    private static func instantiate(_ pattern: String) -> String {
        let values = [
            "lang": "en", "region": "US", "alpha": "a", "upper": "A", "lower": "a", "alnum": "a", "digit": "1",
            "xdigit": "f",
        ]
        var text = pattern
        for (name, value) in values { text = text.replacingOccurrences(of: "$(\(name))", with: value) }
        return text.replacingOccurrences(of: "*", with: "demo").replacingOccurrences(of: "?", with: "1")
    }
}
