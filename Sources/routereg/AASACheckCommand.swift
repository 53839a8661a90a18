import Foundation
import RouteCore

/// `routereg aasa check FILE --app APPID [--domain HOST] [--json] URL...`: evaluates any
/// apple-app-site-association file offline, the way Apple's `swcutil` does on a Mac, and says for each URL
/// which rule decided or why none did. The tool people reach for when a universal link misbehaves.
enum AASACheckCommand {
    static let spec = CommandSpec(
        ["aasa", "check"], summary: "evaluate any AASA file offline for URLs, as iOS would",
        details: """
            Evaluates an apple-app-site-association file offline, as iOS would, for an installed app.
            For each URL prints the outcome (match: iOS opens the app; exclude: an exclude rule decided;
            no_match: the browser opens it) and the rule that decided, or why nothing matched.
            With --json: a JSON array of results instead of text.
            Exit status: 0 when every URL was evaluated, 1 when FILE cannot be read or parsed, 2 for usage errors.
            """,
        positionals: [
            PositionalSpec(name: "FILE", summary: "the AASA document (JSON); \"-\" reads standard input"),
            PositionalSpec(name: "URL", summary: "links to evaluate", variadic: true),
        ],
        flags: [
            .value("app", "APPID", "the app's ID, TEAMID.bundle.id (required)"),
            .value("domain", "HOST", "the host the file was served from (default: each URL's own host)"),
        ],
        examples: [
            "aasa check apple-app-site-association --app ABCDE12345.com.example.app https://example.com/buy/42 "
                + "'https://example.com/help/1?articleNumber=4815'"
        ],
        compatibility: compatibility, action: .run(check))

    /// `routereg aasa check: PROBLEM (see routereg aasa check --help)`, in the words the command always used.
    static let compatibility = CommandSpec.Compatibility(
        reword: { problem in
            switch problem {
            case .unknownFlag(let token): "unknown option \(token.prefix { $0 != "=" })"
            case .missingValue(let flag) where flag.name == "app": "--app needs an app ID"
            case .missingValue(let flag) where flag.name == "domain": "--domain needs a host"
            case .unexpectedValue(let flag, _): "--\(flag.name) takes no value"
            case .missingArgument(let positional) where positional.name == "FILE": "missing FILE"
            case .missingArgument: "missing URL to check"
            case .missingValue, .repeated, .unexpectedArgument: nil
            }
        },
        prefix: "routereg aasa check: ", afterUsage: { " (see routereg aasa check --help)" })

    /// Reads the file, evaluates every URL and prints the results.
    static func check(_ run: Invocation) throws {
        guard let app = run.arguments.value("app") else { throw UsageError("missing --app APPID") }
        guard !app.isEmpty else { throw UsageError("--app needs an app ID") }
        let domain = run.arguments.value("domain")
        if domain?.isEmpty == true { throw UsageError("--domain needs a host") }
        let file = run.argument(0)
        let texts = Array(run.arguments.positionals.dropFirst())
        let urls = try texts.map { text throws(UsageError) in
            guard let url = LinkURL(text) else { throw UsageError("not a URL: \(text)") }
            return url
        }
        let document = try read(file, run)
        let results = zip(texts, urls).map { text, url in (text, evaluate(document, url, app, domain)) }
        if run.json { return run.print(json(results)) }
        for (text, result) in results { run.print(describe(text, result)) }
    }

    /// The AASA document in `file` ("-": standard input).
    private static func read(_ file: String, _ run: Invocation) throws(CommandFailure) -> AASADocument {
        let data: Data
        if file == "-" {
            data = run.environment.readStandardInput()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                let reason = FileManager.default.fileExists(atPath: file) ? "not readable" : "no such file"
                throw CommandFailure("cannot read \(file): \(reason)")
            }
        }
        do {
            return try AASADocument(json: data)
        } catch let problem as AASADocumentError {
            throw CommandFailure("\(file) is not a usable AASA file: \(problem.message)")
        } catch {
            throw CommandFailure("\(file) is not a usable AASA file")
        }
    }

    private static func evaluate(_ document: AASADocument, _ url: LinkURL, _ app: String, _ domain: String?)
        -> AASAEvaluation
    {
        if let domain {
            let host = LinkURL(scheme: "https", host: domain, path: "").host
            if url.host != host {
                return AASAEvaluation(reason: "host \(url.host) differs from --domain \(host)")
            }
            return document.evaluate(appID: app, url: url, domain: host)
        }
        return document.evaluate(appID: app, url: url, domain: url.host)
    }

    /// Two lines per URL: the outcome and the URL, then the deciding rule or the reason.
    private static func describe(_ url: String, _ result: AASAEvaluation) -> String {
        let outcome = result.outcome.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        var text = "\(outcome) \(url)\n"
        if let location = result.ruleLocation, let rule = result.ruleJSON, let resolved = result.rule {
            text += "          \(result.reason): \(location) \(rule)"
            if !resolved.caseSensitive || !resolved.percentEncoded {
                text += " (caseSensitive \(resolved.caseSensitive), percentEncoded \(resolved.percentEncoded))"
            }
        } else {
            text += "          \(result.reason)"
        }
        return text
    }

    private static func json(_ results: [(String, AASAEvaluation)]) -> String {
        let array: [[String: Any]] = results.map { url, result in
            var entry: [String: Any] = ["url": url, "outcome": result.outcome.rawValue, "reason": result.reason]
            if let detail = result.detailIndex { entry["detailIndex"] = detail }
            if let rule = result.ruleIndex { entry["ruleIndex"] = rule }
            if let location = result.ruleLocation { entry["location"] = location }
            if let ruleJSON = result.ruleJSON,
                let rule = try? JSONSerialization.jsonObject(with: Data(ruleJSON.utf8), options: [.fragmentsAllowed])
            {
                entry["rule"] = rule
            }
            if let resolved = result.rule {
                entry["caseSensitive"] = resolved.caseSensitive
                entry["percentEncoded"] = resolved.percentEncoded
            }
            return entry
        }
        let data =
            (try? JSONSerialization.data(
                withJSONObject: array, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
