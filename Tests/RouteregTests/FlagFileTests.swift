import Foundation
import Testing

@testable import routereg

/// `routereg serve --config FILE`: every flag of serve's table is a setting, the command line wins, and a
/// mistake in the file names its line.
@Suite("Serve configuration file")
struct FlagFileTests {
    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-\(UUID().uuidString).conf")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func parse(_ tokens: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(
            tokens, flags: ServeCommand.spec.flags + ServeCommand.spec.globalFlags, positionals: [],
            command: "routereg serve", lastValueWins: true)
    }

    static func options(_ tokens: [String], file: String) throws -> ServeCommand.Options {
        let path = try write(file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = try FlagFile.applying(
            to: parse(tokens + ["--config", path]), flag: "config", defaultPath: "/nonexistent",
            flags: ServeCommand.spec.flags)
        return try ServeCommand.options(merged)
    }

    @Test func everySettingOfTheFileReachesTheOptionsAndTheCommandLineWins() throws {
        let file = """
            # comment
              listen = 127.0.0.1:9999
            database-url = "postgresql://routereg@db/routereg?target_session_attrs=read-write"
            data-dir=/var/lib/routereg
            pool-size = 12
            read-only = true
            quiet = true

            request-timeout = 2500
            """
        let fromFile = try Self.options([], file: file)
        #expect(fromFile.listen == "127.0.0.1:9999")
        #expect(fromFile.databaseURL == "postgresql://routereg@db/routereg?target_session_attrs=read-write")
        #expect(fromFile.dataDirectory == "/var/lib/routereg")
        #expect(fromFile.poolSize == 12)
        #expect(fromFile.readOnly && fromFile.quiet)
        #expect(fromFile.requestTimeoutMs == 2500)

        let overridden = try Self.options(["--listen", "127.0.0.1:0", "--pool-size=3", "--quiet=false"], file: file)
        #expect(overridden.listen == "127.0.0.1:0")
        #expect(overridden.poolSize == 3)
        #expect(!overridden.quiet, "--quiet=false on the command line turns off the file's quiet = true")
        #expect(overridden.readOnly && overridden.dataDirectory == "/var/lib/routereg")
    }

    /// Generic over the table: every value flag and switch serve lists (today's and any added later) is accepted
    /// as a setting with the value its help names, and the file's value ends up as if given on the line.
    @Test func everyFlagInServesTableIsASetting() throws {
        for flag in ServeCommand.spec.flags where flag.name != "config" {
            let value: String
            switch flag.kind {
            case .bool: value = "true"
            case .value: value = "some-value-\(flag.name)"
            }
            let path = try Self.write("\(flag.name) = \(value)\n")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let merged = try FlagFile.applying(
                to: Self.parse(["--config", path]), flag: "config", defaultPath: "/nonexistent",
                flags: ServeCommand.spec.flags)
            #expect(merged.values(flag.name) == [value], "\(flag.name)")
        }
    }

    @Test func mistakesNameTheFileAndLine() throws {
        let cases: [(String, String)] = [
            ("listen = 127.0.0.1:1\nthreds = 4\n", ":2: unknown setting \"threds\""),
            ("quiet = yes\n", ":1: quiet is true or false (got \"yes\")"),
            ("pool-size = 2\npool-size = 3\n", ":2: pool-size is set more than once"),
            ("\n\njust words\n", ":3: expected NAME = VALUE"),
            ("config = /etc/other.conf\n", ":1: unknown setting \"config\""),
            ("help = true\n", ":1: unknown setting \"help\""),
        ]
        for (text, message) in cases {
            let path = try Self.write(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                _ = try FlagFile.applying(
                    to: Self.parse(["--config", path]), flag: "config", defaultPath: "/nonexistent",
                    flags: ServeCommand.spec.flags)
                Issue.record("accepted \(text.debugDescription)")
            } catch let error as UsageError {
                #expect(error.message.hasPrefix(path), "\(error.message)")
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        // A value the file gives is checked like the flag's own.
        #expect(throws: UsageError.self) { try Self.options([], file: "pool-size = 9999\n") }
    }

    @Test func theDefaultFileIsReadOnlyWhenPresentAndAnExplicitOneMustExist() throws {
        let present = try Self.write("pool-size = 7\n")
        defer { try? FileManager.default.removeItem(atPath: present) }
        let flags = ServeCommand.spec.flags
        let byDefault = try FlagFile.applying(to: Self.parse([]), flag: "config", defaultPath: present, flags: flags)
        #expect(byDefault.value("pool-size") == "7")
        let absent = try FlagFile.applying(
            to: Self.parse([]), flag: "config", defaultPath: present + ".missing", flags: flags)
        #expect(absent.value("pool-size") == nil)
        let none = try FlagFile.applying(
            to: Self.parse(["--config", ""]), flag: "config", defaultPath: present, flags: flags)
        #expect(none.value("pool-size") == nil, "--config \"\" reads no file")
        #expect(throws: UsageError.self) {
            try FlagFile.applying(
                to: Self.parse(["--config", present + ".missing"]), flag: "config", defaultPath: present, flags: flags)
        }
    }
}
