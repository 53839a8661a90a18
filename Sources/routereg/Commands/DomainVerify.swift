import Foundation
import HTTPFetching
import JSONBytes
import RouteCore

/// `routereg domain verify HOST`: the domain's well-known files fetched as Apple's crawler (and Android's
/// verifier) fetch them, each failure named in one line.
enum DomainVerify {
    /// Apple's limit on the AASA, uncompressed.
    static let sizeLimit = 128 * 1024

    static let spec = CommandSpec(
        ["domain", "verify"], summary: "fetch a domain's well-known files as Apple's crawler does, name each failure",
        details: """
            Fetches https://HOST/.well-known/apple-app-site-association and https://HOST/.well-known/assetlinks.json
            the way Apple's crawler and Android's verifier do: HTTPS only, no redirect followed (a redirect is a
            failure), status 200, Content-Type application/json, at most 128 KB, strict JSON, and the registry's
            current revision (compared by JSON meaning). Prints one line per file: ok, or each failure named
            (redirect, plain HTTP, TLS, status, content type, too large, invalid JSON, stale revision, not a
            revision we published). Exit status 1 when any check fails.
            --connect-to ADDRESS:PORT fetches from that address instead of HOST's (TLS and Host stay HOST's: a
            staging origin, or a local one in tests); --ca-file trusts that PEM file instead of the system's CAs.
            """,
        positionals: [DomainCommands.hostArgument],
        flags: [
            AASACommands.kind,
            .value("connect-to", "ADDRESS:PORT", "connect there instead of HOST (TLS and Host stay HOST)"),
            .value("ca-file", "PEM", "trust these CA certificates instead of the system's"),
            .value("timeout", "SECONDS", "per fetch, 1...120 (default 10)"),
        ],
        examples: [
            "domain verify m.badoo.com", "domain verify m.badoo.com --connect-to 127.0.0.1:8443 --ca-file ca.pem",
        ],
        action: .run(run))

    /// What one file's check found.
    struct Finding: Sendable {
        var kind: DocumentKind
        var failures: [String] = []
        var note: String = ""
    }

    static func run(_ run: Invocation) throws {
        let host = run.argument(0).lowercased()
        let kinds = try AASACommands.documentKind(run).map { [$0] } ?? [.aasa, .assetlinks]
        let seconds =
            try run.arguments.value("timeout").map { text throws(UsageError) -> Int in
                guard let value = Int(text), (1...120).contains(value) else {
                    throw UsageError("--timeout must be a number in 1...120")
                }
                return value
            } ?? 10
        let connectTo = run.arguments.value("connect-to")
        let caFile = run.arguments.value("ca-file")
        let fetcher = HTTPFetcher(userAgent: "routereg-domain-verify")
        var findings: [Finding] = []
        for kind in kinds {
            findings.append(
                try check(
                    run, host: host, kind: kind, fetcher: fetcher, connectTo: connectTo, caFile: caFile,
                    timeout: .seconds(seconds)))
        }
        if run.json {
            let report = findings.map { finding -> [String: Any] in
                [
                    "kind": finding.kind.rawValue, "ok": finding.failures.isEmpty, "failures": finding.failures,
                    "note": finding.note,
                ]
            }
            run.printJSON(
                try JSONSerialization.data(withJSONObject: ["host": host, "files": report], options: [.sortedKeys]))
        } else {
            for finding in findings {
                let name = finding.kind == .aasa ? "apple-app-site-association" : "assetlinks.json"
                if finding.failures.isEmpty {
                    run.print("ok \(name): \(finding.note)")
                } else {
                    for failure in finding.failures { run.print("FAIL \(name): \(failure)") }
                }
            }
        }
        let failed = findings.reduce(0) { $0 + $1.failures.count }
        if failed > 0 { throw CommandFailure("\(host): \(failed) check\(failed == 1 ? "" : "s") failed") }
    }

    static func path(_ kind: DocumentKind) -> String {
        kind == .aasa ? "/.well-known/apple-app-site-association" : "/.well-known/assetlinks.json"
    }

    static func check(
        _ run: Invocation, host: String, kind: DocumentKind, fetcher: HTTPFetcher, connectTo: String?,
        caFile: String?, timeout: Duration
    ) throws -> Finding {
        var finding = Finding(kind: kind)
        guard let url = URL(string: "https://\(host)\(path(kind))") else {
            throw UsageError("HOST: \"\(host)\" is not a host name")
        }
        let request = HTTPFetcher.Request(
            url: url, headers: ["Accept": "application/json"], timeout: timeout, maxBytes: sizeLimit,
            caFile: caFile, connectTo: connectTo)
        let response: HTTPFetcher.Response
        switch fetcher.get(request) {
        case .success(let answer):
            response = answer
        case .failure(.tooLarge(let status, _)):
            finding.failures.append("too large: more than \(sizeLimit) bytes (Apple's limit; status \(status))")
            return finding
        case .failure(.timeout):
            finding.failures.append("timeout: no complete answer within \(Int(timeout.components.seconds)) s")
            return finding
        case .failure(.cancelled):
            finding.failures.append("cancelled")
            return finding
        case .failure(.network(let text)):
            // Does the origin answer plain HTTP where HTTPS was asked?
            var plain = request
            plain.url = URL(string: "http://\(host):\(url.port ?? 443)\(path(kind))")!
            // (An HTTPS port answers a plain request 400: that is not an origin serving plain HTTP.)
            if case .success(let answer) = fetcher.get(plain), answer.status != 400 {
                finding.failures.append("plain HTTP: the origin answers without TLS (Apple's crawler needs HTTPS)")
            } else {
                finding.failures.append("TLS or connection: \(text)")
            }
            return finding
        }
        if (300..<400).contains(response.status) {
            let location = response.header("location").map { " to \($0)" } ?? ""
            finding.failures.append(
                "redirect: \(response.status)\(location) (Apple's crawler follows no redirects)")
            return finding
        }
        if response.status != 200 {
            finding.failures.append("status: \(response.status) (needs 200)")
            return finding
        }
        let type = response.header("content-type") ?? "none"
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if mediaType != "application/json" {
            finding.failures.append("content type: \(type) (needs application/json)")
        }
        do {
            try StrictJSON.validate(response.body)
        } catch {
            finding.failures.append("invalid JSON: \(error.description)")
            return finding
        }
        guard case .success(let served) = DeliveryMeaning.document(response.body) else {
            finding.failures.append("invalid JSON: not a document")
            return finding
        }
        let current = try run.call(API.AssociationsGet.self, .init(host: host, kind: kind)).output
        let currentHash = try hash(current.document)
        // Matched and classified as the server's delivery watch does: the same look-back, the same rules.
        let matched = try DeliveryClassification.match(meaning: served, current: current.revision) { number in
            if number == current.revision { return currentHash }
            return try hash(
                run.call(API.AssociationsGet.self, .init(host: host, kind: kind, revision: number)).output.document)
        }
        let classified = DeliveryClassification.classify(
            matched.map { .revision($0) } ?? .unpublished, current: current.revision, currentTime: Date())
        switch classified.revisionsBehind {
        case 0?:
            finding.note = "serves revision \(current.revision), the current one (\(response.body.count) bytes)"
        case let behind? where behind > 0:
            finding.failures.append(
                "stale: serves revision \(classified.servedRevision ?? 0), the current one is \(current.revision)")
        default:
            finding.failures.append("not a revision we published (the current one is \(current.revision))")
        }
        return finding
    }

    /// The meaning of a document the API returned, as `DeliveryMeaning` hashes served bytes.
    static func hash(_ document: JSONValue) throws -> String {
        guard case .success(let hash) = DeliveryMeaning.document(try CanonicalJSON.encode(document)) else {
            throw CommandFailure("the registry's document could not be read")
        }
        return hash
    }
}
