import Foundation
import JSONBytes

/// What build is serving: its version and the commit it was built from (`GET /version`), so an operator
/// rolling a fleet sees which servers run what.
public struct BuildInfo: Sendable, Hashable {
    /// The release version (`0.1.0`).
    public var version: String
    /// The commit built, or `unknown` when the build did not record one.
    public var commit: String

    public init(version: String, commit: String) {
        self.version = version
        self.commit = commit
    }

    /// A build that does not know its own (tests, tools).
    public static let unknown = BuildInfo(version: "unknown", commit: "unknown")

    /// `{"commit":…,"version":…}`.
    var json: [UInt8] {
        var bytes = Array("{\"commit\":".utf8)
        JSONString.append(commit, to: &bytes)
        bytes += Array(",\"version\":".utf8)
        JSONString.append(version, to: &bytes)
        bytes += Array("}".utf8)
        return bytes
    }

    /// The commit recorded beside an executable: `make` writes `git rev-parse HEAD` to
    /// `<executable>.commit` after building it; `unknown` without one.
    public static func commit(besideExecutable path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path + ".commit"),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.count == 40, text.allSatisfy(\.isHexDigit)
        else { return "unknown" }
        return text
    }
}
