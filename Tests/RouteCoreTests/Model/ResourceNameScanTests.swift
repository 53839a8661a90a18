import Foundation
import Testing

/// Resource names are printed by `ResourceName` only: a name formatted by hand (`"apps/\(app)/routes/\(id)"`,
/// `"domains/" + host`) in one more place is one more place to keep in step with the wire format. This
/// suite fails on any such string in the server's or the Swift client's sources outside `ResourceName.swift`.
@Suite struct ResourceNameScanTests {
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folders scanned, relative to the package root.
    static let folders = ["Sources", "Clients/swift/Sources"]

    /// The file allowed to spell names, relative to the package root.
    static let owner = "Sources/RouteCore/Model/ResourceName.swift"

    /// A collection segment followed by an interpolated id, or a collection prefix concatenated with one.
    static func pattern() throws -> Regex<AnyRegexOutput> {
        let collection = "(apps|routes|platforms|releases|domains|revisions|tokens)"
        return try Regex(#"\b\#(collection)/\\\(|"\#(collection)/"\s*\+"#)
    }

    /// `file:line: code` of every line of `folders` outside `owner` (comments aside) matching `pattern()`.
    static func handFormattedNames() throws -> [String] {
        let pattern = try pattern()
        var found: [String] = []
        for folder in folders {
            let files = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            while let file = files.nextObject() as? String {
                let path = "\(folder)/\(file)"
                guard path.hasSuffix(".swift"), path != owner else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                for (index, line) in text.components(separatedBy: "\n").enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") || !code.contains(pattern) { continue }
                    found.append("\(path):\(index + 1): \(code)")
                }
            }
        }
        return found.sorted()
    }

    @Test func namesArePrintedByResourceNameOnly() throws {
        let found = try Self.handFormattedNames()
        #expect(found.isEmpty, "use ResourceName (\(Self.owner)):\n\(found.joined(separator: "\n"))")
    }

    @Test func theOwnerIsWhereTheScanLooks() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(Self.owner), encoding: .utf8)
        #expect(text.contains("public enum ResourceName"))
    }

    /// Lines as they stood in Sources/ before `ResourceName`, and lines that merely mention a name.
    @Test func theScanFindsWhatItLooksFor() throws {
        let pattern = try Self.pattern()
        let handFormatted = [
            #"guard let row = rows.first else { throw RegistryError.notFound("apps/\(app)/routes/\(before)") }"#,
            #"try mapUniqueViolation("domains/\(domain.host)") {"#,
            #"name: "tokens/\(stored.id)", id: stored.id, displayName: stored.displayName ?? "", role: stored.role,"#,
            #""apps/\(app)/platforms/\(platform.rawValue)/releases/\(version.canonical)""#,
            #"run.print("Removed apps/\(run.argument(0))/routes/\(run.argument(1)).")"#,
            #"throw RegistryError.notFound("domains/\(host)/revisions/\(number) (\(kind.rawValue))")"#,
            #"let name = "apps/" + app"#,
        ]
        for line in handFormatted { #expect(line.contains(pattern), "\(line)") }
        let fine = [
            #"throw RegistryError.notFound(.route(app: app, id: before))"#,
            #""\(ResourceName.app(id)) is still served on \(ResourceName.domain(host))""#,
            #"cause: "Routes.Create \(app)/\(route.id)""#,
            #"cause: "\(method) \(key.platform.rawValue) \(key.version)", ruleLint: true"#,
            "/// Resource name: `apps/{app}/routes/{id}`.",
        ]
        for line in fine { #expect(!line.contains(pattern), "\(line)") }
    }
}
