import Foundation
import RouteCore

/// `AASADocument(json:)` then `evaluate` on any bytes: refused with a message, or parsed and able to
/// evaluate URLs for each app it lists without trapping.
///
/// An input holding a NUL byte is split there: the document before it, a URL to evaluate after it, so
/// the fuzzer explores rules and URLs together. Otherwise a fixed set of URLs is evaluated.
enum AASAFuzz {
    private static let urls: [LinkURL] = [
        "https://m.badoo.com/l/a/42", "https://m.badoo.com/", "https://m.badoo.com/profile/1?x=%2F&y#frag",
        "https://M.BADOO.COM./ÄÖ/%E2%82%AC?q=1", "http://m.badoo.com", "https://m.badoo.com/a/b/c/d/e/f/g/h?a=b&c=d",
    ].compactMap { LinkURL($0) }

    static func run(_ bytes: [UInt8]) {
        var documentBytes = bytes[...]
        var candidates = urls
        if let nul = bytes.firstIndex(of: 0) {
            documentBytes = bytes[..<nul]
            let urlText = String(decoding: bytes[(nul + 1)...], as: UTF8.self)
            candidates = LinkURL(urlText).map { [$0] } ?? []
        }
        let document: AASADocument
        do { document = try AASADocument(json: Data(documentBytes)) } catch let error as AASADocumentError {
            invariant(!error.message.isEmpty, "empty AASA refusal")
            return
        } catch {
            preconditionFailure("AASADocument threw a non-AASADocumentError: \(error)")
        }
        var appIDs = Set(document.details.flatMap(\.appIDs))
        appIDs.insert("ABCDE12345.com.example.absent")
        for appID in appIDs.prefix(8) {
            for url in candidates {
                let evaluation = document.evaluate(appID: appID, url: url, domain: "m.badoo.com")
                if let detail = evaluation.detailIndex, let rule = evaluation.ruleIndex {
                    invariant(document.details[detail].appIDs.contains(appID), "deciding detail does not list the app")
                    invariant(rule < document.details[detail].rules.count, "rule index out of range")
                    invariant(evaluation.outcome != .noMatch, "a deciding rule with no match")
                } else {
                    invariant(evaluation.outcome == .noMatch, "a match without a deciding rule")
                }
            }
        }
    }
}
