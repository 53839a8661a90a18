import Foundation
import RouteCore

/// `routereg aasa check FILE --app APPID [--domain HOST] [--json] URL...`: evaluates any
/// apple-app-site-association file offline, the way Apple's `swcutil` does on a Mac, and says for each URL
/// which rule decided or why none did. The tool people reach for when a universal link misbehaves.
enum AASACheckCommand {
    static let usage = """
        usage: routereg aasa check FILE --app APPID [--domain HOST] [--json] URL...

        Evaluates an apple-app-site-association file offline, as iOS would, for an installed app.
        For each URL prints the outcome (match: iOS opens the app; exclude: an exclude rule decided;
        no_match: the browser opens it) and the rule that decided, or why nothing matched.

          FILE           the AASA document (JSON); "-" reads standard input
          --app APPID    the app's ID, TEAMID.bundle.id
          --domain HOST  the host the file was served from (default: each URL's own host)
          --json         print a JSON array of results instead of text

        exit status: 0 when every URL was evaluated, 1 when FILE cannot be read or parsed, 2 for usage errors

        example:
          routereg aasa check apple-app-site-association --app ABCDE12345.com.example.app \\
              https://example.com/buy/42 'https://example.com/help/1?articleNumber=4815'
        """

    /// Runs the command with the arguments that follow `aasa check`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        run(
            arguments,
            readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() },
            output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// The testable core: the same command with its input and output streams passed in.
    static func run(
        _ arguments: [String], readStandardInput: () -> Data, output: (String) -> Void, error report: (String) -> Void
    ) -> Int32 {
        let options: Options
        switch Options.parse(arguments) {
        case .help:
            output(usage)
            return 0
        case .failure(let problem):
            report("routereg aasa check: \(problem) (see routereg aasa check --help)")
            return 2
        case .success(let parsed):
            options = parsed
        }
        var urls: [LinkURL] = []
        for text in options.urls {
            guard let url = LinkURL(text) else {
                report("routereg aasa check: not a URL: \(text) (see routereg aasa check --help)")
                return 2
            }
            urls.append(url)
        }

        let data: Data
        if options.file == "-" {
            data = readStandardInput()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: options.file))
            } catch {
                let reason = FileManager.default.fileExists(atPath: options.file) ? "not readable" : "no such file"
                report("routereg aasa check: cannot read \(options.file): \(reason)")
                return 1
            }
        }
        let document: AASADocument
        do {
            document = try AASADocument(json: data)
        } catch let problem as AASADocumentError {
            report("routereg aasa check: \(options.file) is not a usable AASA file: \(problem.message)")
            return 1
        } catch {
            report("routereg aasa check: \(options.file) is not a usable AASA file")
            return 1
        }

        let results = zip(options.urls, urls).map { text, url in
            (text, evaluate(document, url, options))
        }
        if options.json {
            output(json(results))
        } else {
            for (text, result) in results { output(describe(text, result)) }
        }
        return 0
    }

    private static func evaluate(_ document: AASADocument, _ url: LinkURL, _ options: Options) -> AASAEvaluation {
        if let domain = options.domain {
            let host = LinkURL(scheme: "https", host: domain, path: "").host
            if url.host != host {
                return AASAEvaluation(reason: "host \(url.host) differs from --domain \(host)")
            }
            return document.evaluate(appID: options.app, url: url, domain: host)
        }
        return document.evaluate(appID: options.app, url: url, domain: url.host)
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

    /// The parsed command line.
    struct Options: Equatable {
        var file: String
        var app: String
        var domain: String?
        var json: Bool
        var urls: [String]

        enum Parsed: Equatable {
            case success(Options)
            case help
            case failure(String)
        }

        /// Options may come in any order; `--name value` and `--name=value` are both accepted; everything
        /// after `--` is positional.
        static func parse(_ arguments: [String]) -> Parsed {
            var positional: [String] = []
            var app: String?
            var domain: String?
            var json = false
            var index = 0
            var optionsEnded = false
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                    positional.append(argument)
                    continue
                }
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                func value() -> String? {
                    if let inlineValue { return inlineValue }
                    guard index < arguments.count else { return nil }
                    index += 1
                    return arguments[index - 1]
                }
                switch name {
                case "--":
                    optionsEnded = true
                case "-h", "--help":
                    return .help
                case "--json":
                    guard inlineValue == nil else { return .failure("--json takes no value") }
                    json = true
                case "--app":
                    guard let text = value(), !text.isEmpty else { return .failure("--app needs an app ID") }
                    app = text
                case "--domain":
                    guard let text = value(), !text.isEmpty else { return .failure("--domain needs a host") }
                    domain = text
                default:
                    return .failure("unknown option \(name)")
                }
            }
            guard let file = positional.first else { return .failure("missing FILE") }
            guard let app else { return .failure("missing --app APPID") }
            guard positional.count > 1 else { return .failure("missing URL to check") }
            return .success(
                Options(file: file, app: app, domain: domain, json: json, urls: Array(positional.dropFirst())))
        }
    }
}
