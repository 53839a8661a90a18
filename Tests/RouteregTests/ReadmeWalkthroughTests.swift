import Foundation
import RegistryTesting
import Testing

/// The README's tour and release-day walkthrough, run exactly as written: every `routereg` line of those
/// code blocks through the built binary, and the tour's `curl`, against a real server. Editing the README
/// edits this test.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct ReadmeWalkthroughTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The lines of the first fenced `sh` block after `heading` (`skipping` blocks before it).
    static func block(after heading: String, skipping: Int = 0) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: "\n" + heading + "\n"), "README has no \(heading)")
        var rest = text[section.upperBound...]
        for _ in 0..<skipping {
            let open = try #require(rest.range(of: "```sh\n"))
            let close = try #require(rest[open.upperBound...].range(of: "```"))
            rest = rest[close.upperBound...]
        }
        let open = try #require(rest.range(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    }

    /// Splits a shell command line into words (single and double quotes; no expansions are needed here).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    @Test func quotingFollowsTheShell() {
        #expect(
            Self.words("routereg route add badoo x '/l/a/*' --reason 'crash in 5.12.0'")
                == ["routereg", "route", "add", "badoo", "x", "/l/a/*", "--reason", "crash in 5.12.0"])
    }

    @Test func tourAndReleaseDayRunAsWritten() async throws {
        let server = try TestRegistryServer(suite: "readme")
        defer { server.shutdown() }
        let environment = [
            "ROUTEREG_SERVER": server.baseURL.absoluteString, "ROUTEREG_TOKEN": TestRegistryServer.adminToken,
        ]
        let lines = try Self.block(after: "## A 60-second tour") + Self.block(after: "## Release day")
        var ran = 0
        for line in lines {
            if line.hasPrefix("routereg ") {
                let result = try await BinaryRunner.run(Array(Self.words(line).dropFirst()), environment: environment)
                #expect(result.status == 0, "\(line): \(result.stderr)")
                ran += 1
            } else if line.hasPrefix("curl ") {
                let hostHeader = try #require(line.range(of: "Host: "))
                let host = line[hostHeader.upperBound...].prefix { $0 != "'" }
                let path = try #require(line.range(of: "localhost:8080")).upperBound
                let (body, response) = try await server.get(
                    String(line[path...].prefix { $0 != ";" && $0 != " " }), host: String(host))
                #expect(response.statusCode == 200)
                #expect(String(decoding: body, as: UTF8.self).contains("/u/*"))
            } else {
                #expect(line.hasPrefix("export "), "a README line this test does not know how to run: \(line)")
            }
        }
        #expect(ran >= 14)
        let decision = try await server.result(
            "CanOpen.Check",
            ["app": "badoo", "platform": "ios", "version": "5.12.0", "url": "https://m.badoo.com/l/a/42"],
            token: nil)
        #expect(decision["reason"] as? String == "switched_off")

        // Links: the commands, then each visitor's curl, as written (the curl lines by what they print).
        var linkCommands = 0
        for line in try Self.block(after: "## Links") + Self.block(after: "## Links", skipping: 1) {
            if line.hasPrefix("routereg ") {
                let result = try await BinaryRunner.run(Array(Self.words(line).dropFirst()), environment: environment)
                #expect(result.status == 0, "\(line): \(result.stderr)")
                linkCommands += 1
                continue
            }
            let words = Self.words(line.components(separatedBy: " | ")[0])
            #expect(words.first == "curl", "a README line this test does not know how to run: \(line)")
            let agent = words.firstIndex(of: "-A").map { words[$0 + 1] }
            let host = try #require(
                words.firstIndex(of: "-H").map { words[$0 + 1].replacingOccurrences(of: "Host: ", with: "") })
            let url = try #require(words.last { $0.hasPrefix("localhost:8080") })
            let (body, response) = try await server.visit(
                String(url.dropFirst("localhost:8080".count)), host: host, userAgent: agent ?? "curl/8.5.0")
            let page = String(decoding: body, as: UTF8.self)
            if line.contains("og:title") {
                #expect(response.statusCode == 200 && page.contains(#"<meta property="og:title" content="A profile">"#))
            } else if line.contains("iPhone") {
                #expect(response.statusCode == 200 && page.contains("href=\"https://apps.apple.com/app/id351331194"))
            } else if line.contains("nothing-here") {
                #expect(response.statusCode == 404)
            } else {
                #expect(response.statusCode == 302)
                #expect(response.value(forHTTPHeaderField: "Location") == "https://m.badoo.com/u/42")
            }
        }
        #expect(linkCommands >= 7)
        let resolved = try await server.result(
            "Links.Resolve", ["url": "https://go.badoo.com/lookalikes", "platform": "ios", "version": "5.12.0"],
            token: nil)
        #expect(resolved["minVersion"] as? String == "5.12.1" && resolved["minVersionSource"] as? String == "link")

        // A campaign link, listed by tag and campaign, switched off and on (issue 45).
        var switchedOff = false
        for line in try Self.block(after: "## Links", skipping: 2) {
            if line.hasPrefix("routereg ") {
                let result = try await BinaryRunner.run(Array(Self.words(line).dropFirst()), environment: environment)
                #expect(result.status == 0, "\(line): \(result.stderr)")
                if line.contains("link list") { #expect(result.stdout.contains("https://go.badoo.com/summer")) }
                if line.contains("link qr") { #expect(result.stdout.contains("https://go.badoo.com/summer?qr=1\n")) }
                if line.contains("--csv") {
                    #expect(result.stdout.hasPrefix("day,platform,outcome,source,visitor,clicks\r\n"))
                    #expect(result.stdout.contains(",desktop,redirect,link,person,"), "\(result.stdout)")
                }
                switchedOff = line.contains("link disable")
                continue
            }
            let (_, response) = try await server.visit("/summer", host: "go.badoo.com", userAgent: "curl/8.5.0")
            if switchedOff {
                #expect(response.statusCode == 404, "\(line)")
            } else {
                #expect(response.statusCode == 302)
                #expect(
                    response.value(forHTTPHeaderField: "Location")
                        == "https://m.badoo.com/u/42?utm_source=newsletter&utm_medium=email&utm_campaign=summer")
            }
        }
        #expect(!switchedOff, "the block ends with the link switched on again")
        let (_, back) = try await server.visit("/summer", host: "go.badoo.com", userAgent: "curl/8.5.0")
        #expect(back.statusCode == 302)

        // A webhook: created (its secret printed once) and listed.
        for line in try Self.block(after: "## Links", skipping: 3) {
            #expect(line.hasPrefix("routereg webhook "), "a README line this test does not know how to run: \(line)")
            let result = try await BinaryRunner.run(Array(Self.words(line).dropFirst()), environment: environment)
            #expect(result.status == 0, "\(line): \(result.stderr)")
            if line.contains("webhook create") {
                #expect(result.stdout.split(separator: "\n").last?.hasPrefix("whsec_") == true, "\(result.stdout)")
            }
            if line.contains("webhook list") {
                #expect(result.stdout.contains("https://hooks.example.com/routereg"))
                #expect(result.stdout.contains("link.created,link.clicked"))
            }
        }

        // Tokens: scoped to badoo, expiring; the list shows them with their apps and expiry.
        var secrets: [String] = []
        for line in try Self.block(after: "## Tokens") {
            #expect(line.hasPrefix("routereg "), "a README line this test does not know how to run: \(line)")
            let result = try await BinaryRunner.run(Array(Self.words(line).dropFirst()), environment: environment)
            #expect(result.status == 0, "\(line): \(result.stderr)")
            if line.contains("token create") {
                secrets += result.stdout.split(separator: "\n").last.map { [String($0)] } ?? []
            }
            if line.contains("token list") {
                #expect(result.stdout.contains("badoo-ci") && result.stdout.contains("2030-12-31"), "\(result.stdout)")
            }
            if line.contains("domain get") {
                // badoo's part of the AASA against its share of Apple's limit (the whole of it, less the
                // shared part, as the only iOS app there).
                #expect(result.stdout.contains("AASA BYTES") && result.stdout.contains("badoo"), "\(result.stdout)")
            }
        }
        #expect(secrets.count == 2 && secrets.allSatisfy { $0.hasPrefix("rr_") })
        let scoped = try await server.result("Tokens.WhoAmI", [:], token: secrets[0])
        #expect(scoped["apps"] as? [String] == ["badoo"] && scoped["role"] as? String == "releaser")
    }
}
