import Foundation
import RouteCore
import Testing

/// What the delivery watch compares: documents by meaning, Google's statements by the apps they list.
@Suite struct DeliveryMeaningTests {
    static func meaning(_ text: String) -> Result<String, DeliveryMeaning.Failure> {
        DeliveryMeaning.document(Data(text.utf8))
    }

    @Test func keyOrderWhitespaceAndEscapesDoNotChangeTheMeaning() throws {
        let a = try Self.meaning(#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/u/*"}]}]}}"#).get()
        let b = try Self.meaning(
            """
            { "applinks" : { "details" : [ { "components" : [ { "/" : "\\/u\\/*" } ], "appIDs" : [ "A.b" ] } ] } }
            """
        ).get()
        #expect(a == b)
    }

    @Test func aChangedRuleChangesTheMeaning() throws {
        let a = try Self.meaning(#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/u/*"}]}]}}"#).get()
        let b = try Self.meaning(#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/v/*"}]}]}}"#).get()
        let reordered = try Self.meaning(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/v/*"},{"/":"/u/*"}]}]}}"#
        ).get()
        let both = try Self.meaning(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/u/*"},{"/":"/v/*"}]}]}}"#
        ).get()
        #expect(a != b)
        // Rule order decides the first match: it is part of the meaning.
        #expect(reordered != both)
    }

    @Test(arguments: [#"{"a":1,}"#, #"{"a":1}{"#, "", #"{"a":01}"#])
    func notStrictJSONHasNoMeaning(text: String) {
        guard case .failure(.invalidJSON) = Self.meaning(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test func googlesStatementsMatchTheAssetlinksFileThatGrantsThem() throws {
        let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
        let file = """
            [{"relation":["delegate_permission/common.handle_all_urls"],
              "target":{"namespace":"android_app","package_name":"com.example.shop",
                        "sha256_cert_fingerprints":["\(fingerprint)"]}},
             {"relation":["delegate_permission/common.get_login_creds"],
              "target":{"namespace":"android_app","package_name":"com.example.other",
                        "sha256_cert_fingerprints":["\(fingerprint)"]}}]
            """
        let listed = """
            {"statements":[{"source":{"web":{"site":"https://shop.example.com."}},
              "relation":"delegate_permission/common.handle_all_urls",
              "target":{"androidApp":{"packageName":"com.example.shop",
                                      "certificate":{"sha256Fingerprint":"\(fingerprint.lowercased())"}}}}],
             "maxAge":"3600s"}
            """
        let fileMeaning = try DeliveryMeaning.assetLinksFile(Data(file.utf8)).get()
        #expect(try DeliveryMeaning.statementsList(Data(listed.utf8)).get() == fileMeaning)
        let nothing = try DeliveryMeaning.statementsList(Data(#"{"maxAge":"600s"}"#.utf8)).get()
        #expect(nothing != fileMeaning)
        #expect(nothing == (try DeliveryMeaning.assetLinksFile(Data("[]".utf8)).get()))
    }
}
