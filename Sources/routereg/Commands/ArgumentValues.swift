import RouteCore

/// Converts argument text into model values, failing with a usage error that names the argument.
enum ArgumentValues {
    /// `ios` or `android`.
    static func platform(_ text: String, field: String = "PLATFORM") throws(UsageError) -> Platform {
        guard let platform = Platform(rawValue: text.lowercased()) else {
            throw UsageError("\(field): \"\(text)\" is not a platform (ios or android)")
        }
        return platform
    }

    /// A version such as `5.12.0` or an Android versionCode such as `51200`.
    static func version(_ text: String, field: String = "VERSION") throws(UsageError) -> Version {
        do {
            return try Version(text)
        } catch {
            throw UsageError("\(field): \(error.description)")
        }
    }

    /// `NAME=VALUE`, split at the first `=`.
    static func pair(_ text: String, flag: String, placeholder: String) throws(UsageError) -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError("--\(flag): expected \(placeholder), got \"\(text)\"")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `--since ios=5.12.0 --since android=51200` as versions per platform; a platform may appear once.
    static func platformVersions(_ values: [String], flag: String) throws(UsageError) -> [Platform: String] {
        var result: [Platform: String] = [:]
        for value in values {
            let (name, version) = try pair(value, flag: flag, placeholder: "PLATFORM=VERSION (ios=5.12.0)")
            let platform = try platform(name, field: "--\(flag)")
            if result[platform] != nil { throw UsageError("--\(flag): \(platform.rawValue) given more than once") }
            result[platform] = version
        }
        return result
    }

    /// A positive integer flag value.
    static func positiveInt(_ text: String?, flag: String) throws(UsageError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else {
            throw UsageError("--\(flag): \"\(text)\" is not a positive number")
        }
        return value
    }

    /// A non-negative integer (revision numbers).
    static func revision(_ text: String, field: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 1 else {
            throw UsageError("\(field): \"\(text)\" is not a revision number (1, 2, ...)")
        }
        return value
    }
}

/// Flags shared by several commands.
enum CommonFlags {
    static let etag = FlagSpec.value("etag", "ETAG", "only if the resource still has this etag (else ABORTED)")
    static let pageSize = FlagSpec.value("page-size", "N", "at most N items (the server caps it at 1000)")
    static let pageToken = FlagSpec.value("page-token", "TOKEN", "continue from a previous page")
    static let paging = [pageSize, pageToken]
}

extension Invocation {
    /// `pageSize`/`pageToken` from the paging flags, with the default page size for people.
    func page(defaultSize: Int = 1000) throws(UsageError) -> PageRequest {
        PageRequest(
            pageSize: try ArgumentValues.positiveInt(arguments.value("page-size"), flag: "page-size") ?? defaultSize,
            pageToken: arguments.value("page-token"))
    }

    /// Tells people how to get the next page, when there is one.
    func printNextPage(_ token: String?) {
        guard let token, !token.isEmpty else { return }
        print(style.dim("more: add --page-token \(token)"))
    }
}
