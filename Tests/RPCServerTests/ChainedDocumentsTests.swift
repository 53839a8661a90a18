import RegistryAPI
import HTTPServing
import JSONRPC
import Testing

/// The console's files chained before the registry's must not hide the registry's own answers (the canOpen
/// table GET's 400 and its named 404 went through `document(path:host:)`, which only knows found or not).
@Suite("Chained documents")
struct ChainedDocumentsTests {
    /// Answers `refusal` for paths under `prefix`, a document for `path`, 404 otherwise.
    struct Provider: StaticDocumentProvider {
        var path: String
        var prefix: String
        var refusal: DocumentLookup

        func document(path: String, host: String) -> StaticDocument? {
            path == self.path ? StaticDocument(bytes: Array(path.utf8), contentType: "text/plain", etag: "x") : nil
        }

        func lookup(path: String, host: String) -> DocumentLookup {
            if path.hasPrefix(prefix) { return refusal }
            return document(path: path, host: host).map { .document($0) }
                ?? .refused(status: 404, reason: "not found\n")
        }
    }

    static func status(_ answer: DocumentLookup) -> (Int, String) {
        switch answer {
        case .document(let document): (200, String(decoding: document.bytes, as: UTF8.self))
        case .refused(let status, let reason): (status, reason)
        }
    }

    @Test func eachProvidersOwnAnswerSurvivesTheChain() {
        let console = Provider(path: "/console/", prefix: "/nothing", refusal: .refused(status: 404, reason: "x"))
        let registry = Provider(
            path: "/.well-known/assetlinks.json", prefix: "/canopen/v1/bad",
            refusal: .refused(status: 400, reason: "version: bad\n"))
        let named = Provider(
            path: "-", prefix: "/canopen/v1/nobody",
            refusal: .refused(status: 404, reason: "app \"nobody\" not found\n"))
        let chain = ChainedDocuments([console, registry, named])
        #expect(Self.status(chain.lookup(path: "/console/", host: "")) == (200, "/console/"))
        #expect(Self.status(chain.lookup(path: "/.well-known/assetlinks.json", host: "")).0 == 200)
        #expect(Self.status(chain.lookup(path: "/canopen/v1/bad/ios/x.json", host: "")) == (400, "version: bad\n"))
        #expect(
            Self.status(chain.lookup(path: "/canopen/v1/nobody/ios/1.json", host: ""))
                == (404, "app \"nobody\" not found\n"))
        #expect(Self.status(chain.lookup(path: "/elsewhere", host: "")).0 == 404)
    }
}
