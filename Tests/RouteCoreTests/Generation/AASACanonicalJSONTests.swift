import Foundation
import Testing

@testable import RouteCore
@testable import RouteMatching

/// `AASAFile.canonicalJSON()` writes the AASA directly; the bytes must be exactly `CanonicalJSON`'s (the
/// ETag, the revision history and every served byte depend on them).
@Suite struct AASACanonicalJSONTests {
    /// Every optional field, every key a component can have, the strings JSON must escape, the ones it must
    /// not (`/`, non-ASCII, DEL), and objects with keys of the user's choosing.
    @Test func everyFieldAndEveryEscapeEncodesAsJSONEncoderDoes() throws {
        var awkward = ""
        for scalar in 0..<0x80 { awkward.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        awkward += "\u{7f}\u{80}\u{2028}é😀/\\\""
        let full = AASAComponent(
            path: "/a/\(awkward)/*", query: .items(["b": "1", "B": "2", "a10": "?", "a9": awkward]),
            fragment: "frag\(awkward)", exclude: true, caseSensitive: false, percentEncoded: true, comment: awkward)
        let file = AASAFile(
            applinks: AASAAppLinks(
                apps: [],
                details: [
                    AASADetail(
                        appIDs: ["ABCDE12345.com.example.one", awkward],
                        components: [full, AASAComponent(path: "/x", query: .string("q=\(awkward)")), AASAComponent()],
                        appID: "ABCDE12345.com.example.one", paths: ["NOT /a", awkward]),
                    AASADetail(appIDs: [], components: []),
                    AASADetail(appID: "legacy", paths: []),
                ],
                defaults: MatchDefaults(caseSensitive: false, percentEncoded: false),
                substitutionVariables: ["lang": ["en", "fr"], "Food": [awkward], "_": []]),
            webcredentials: AASAAppList(apps: ["ABCDE12345.com.example.one"]),
            appclips: AASAAppList(apps: []))
        #expect(try file.canonicalJSON() == CanonicalJSON.encode(file))

        var partial = file
        partial.webcredentials = nil
        partial.appclips = nil
        partial.applinks.apps = nil
        partial.applinks.defaults = MatchDefaults(percentEncoded: true)
        partial.applinks.substitutionVariables = nil
        #expect(try partial.canonicalJSON() == CanonicalJSON.encode(partial))
        partial.applinks.defaults = MatchDefaults()
        partial.appclips = AASAAppList(apps: ["clip"])
        #expect(try partial.canonicalJSON() == CanonicalJSON.encode(partial))
    }

    /// The files random registries generate, every host.
    @Test(arguments: 0..<40)
    func generatedFilesEncodeAsJSONEncoderDoes(seed: Int) throws {
        var random = RandomRegistry(seed: UInt64(seed) &* 31 &+ 17)
        let registry = random.registry()
        let index = RegistryIndex(registry)
        for host in RandomRegistry.hosts {
            let (file, _) = try #require(AASAGenerator(index: index).document(host: host))
            #expect(try file.canonicalJSON() == CanonicalJSON.encode(file), "seed \(seed) \(host)")
        }
    }
}
