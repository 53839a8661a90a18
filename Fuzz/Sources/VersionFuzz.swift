import RouteCore

/// `Version(_:)` on any text: refused with a reason, or accepted and then stable when written back and
/// parsed again, equal to itself, and consistently ordered against a fixed version.
enum VersionFuzz {
    private static let reference = Version(components: [5, 12, 0])

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let version: Version
        do { version = try Version(text) } catch {
            invariant(!error.description.isEmpty, "empty refusal for \(bytes)")
            return
        }
        invariant((1...4).contains(version.components.count), "component count of \(text)")
        invariant(version.components.allSatisfy { (0...Version.maxComponent).contains($0) }, "range of \(text)")
        let again = try? Version(version.description)
        invariant(again == version, "\(text) written back as \(version.description) does not parse equal")
        invariant(!(version < version) && version == version, "\(text) not equal to itself")
        let ordered = [version < reference, version == reference, reference < version].filter { $0 }.count
        invariant(ordered == 1, "\(text) against 5.12.0 is not exactly one of <, ==, >")
        let range = VersionRange(since: reference, until: version)
        invariant(range.contains(reference) == (reference < version), "range 5.12.0..<\(text)")
    }
}
