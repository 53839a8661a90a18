import Foundation

/// A configuration file for a command's flags: one `name = value` per line, where `name` is a flag of the
/// command without its dashes (`pool-size = 16`, `read-only = true`). Blank lines and lines starting with `#`
/// are ignored; a value may be wrapped in double quotes (kept verbatim inside them); a repeatable flag may be
/// given on several lines. Any flag the command's table lists can be set, so a flag added to the table is
/// settable here with no further change.
///
/// The command line wins: a flag given there replaces every value the file gives it (`--quiet=false` turns
/// off a file's `quiet = true`).
enum FlagFile {
    /// The settings in `text` (the contents of `path`, named in errors), checked against `flags`: an unknown
    /// name, a line without `=`, a boolean that is not `true` or `false`, or a non-repeatable flag given twice
    /// is a usage error naming the file and line.
    static func parse(_ text: String, path: String, flags: [FlagSpec]) throws(UsageError) -> [String: [String]] {
        var settings: [String: [String]] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(path):\(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw UsageError("\(place): expected NAME = VALUE, got \"\(line)\"")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard let spec = flags.first(where: { $0.name == name }) else {
                throw UsageError(
                    "\(place): unknown setting \"\(name)\" (the settings are the command's flags without dashes)")
            }
            if case .bool = spec.kind, value != "true", value != "false" {
                throw UsageError("\(place): \(name) is true or false (got \"\(value)\")")
            }
            if settings[name] != nil, !spec.repeatable {
                throw UsageError("\(place): \(name) is set more than once")
            }
            settings[name, default: []].append(value)
        }
        return settings
    }

    /// `arguments` with the settings of the file they name through `flag` (or of `defaultPath`, when that file
    /// exists and the flag is not given) added for every flag the command line leaves out. A file named
    /// explicitly must be readable; `--config ""` reads none.
    static func applying(
        to arguments: ParsedArguments, flag: String, defaultPath: String, flags: [FlagSpec]
    ) throws(UsageError) -> ParsedArguments {
        let path: String
        if let given = arguments.value(flag) {
            if given.isEmpty { return arguments }
            path = given
        } else {
            guard FileManager.default.fileExists(atPath: defaultPath) else { return arguments }
            path = defaultPath
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("cannot read the configuration file \(path)")
        }
        let settable = flags.filter { $0.name != flag && $0.name != CommandTable.helpFlag.name }
        var merged = arguments
        for (name, values) in try parse(text, path: path, flags: settable) where arguments.flags[name] == nil {
            merged.flags[name] = values
        }
        return merged
    }
}
