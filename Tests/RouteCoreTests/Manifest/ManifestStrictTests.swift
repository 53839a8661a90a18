import Foundation
import RouteCore
import Testing

/// A manifest is read strictly: a typo is an error naming the member, never silently ignored.
@Suite struct ManifestStrictTests {
    static let valid = """
        {"app": {"id": "badoo", "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]}},
         "domains": [{"host": "m.badoo.com", "substitutionVariables": {"food": ["pizza"]}}],
         "routes": [{"id": "profile", "pattern": {"path": "/u/*", "query": {"ref": "*"}},
                     "platforms": {"ios": {"since": "5.0"}}, "comment": "Profiles"}]}
        """

    @Test func aValidManifestReads() throws {
        let manifest = try Manifest(strictJSON: Data(Self.valid.utf8))
        #expect(manifest.routes.map(\.id) == ["profile"])
        #expect(manifest.domains.first?.substitutionVariables == ["food": ["pizza"]])
    }

    @Test func anExportReadsBackAsItself() throws {
        let exported = Manifest(exporting: ManifestFixture.state())!
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(try Manifest(strictJSON: encoder.encode(exported)) == exported)
    }

    @Test(arguments: [
        (
            #""platforms": {"ios": {"since": "5.0"}}"#, #""platforms": {"ios": {"sinse": "5.0"}}"#,
            "routes[0].platforms.ios.sinse: unknown member"
        ),
        (#""comment": "Profiles""#, #""comment": "Profiles", "coment": "x""#, "routes[0].coment: unknown member"),
        (#""id": "badoo","#, #""id": "badoo", "iosAppIds": [],"#, "app.iosAppIds: unknown member"),
        (
            #""comment": "Profiles""#, #""comment": null"#,
            "routes[0].comment: null is not allowed: leave the member out"
        ),
        (#""host": "m.badoo.com","#, #""host": "m.badoo.com", "link": true,"#, "domains[0].link: unknown member"),
        (#""since": "5.0""#, #""since": "five""#, "routes[0].platforms.ios.since"),
        (#""id": "profile","#, "", "routes[0].id: required member missing"),
    ])
    func aWrongMemberIsNamed(original: String, replacement: String, expected: String) {
        let text = Self.valid.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.valid)
        #expect {
            try Manifest(strictJSON: Data(text.utf8))
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test func aRouteGivenTwiceIsRefusedWhereItRepeats() {
        var manifest = Manifest(exporting: ManifestFixture.state())!
        manifest.routes.append(manifest.routes[0])
        let data = try! JSONEncoder().encode(manifest)
        #expect(throws: ManifestError(path: "routes[3].id", reason: "\"profile\" is also routes[0]")) {
            try Manifest(strictJSON: data)
        }
    }

    @Test func notJSONIsSaidSo() {
        #expect { try Manifest(strictJSON: Data("{".utf8)) } throws: { "\($0)".hasPrefix("not JSON") }
    }
}
