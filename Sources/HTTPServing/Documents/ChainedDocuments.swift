/// Several document providers asked in turn: the first that knows a path answers it.
///
/// The registry's well-known files and the console's files live in different modules; the server sees one
/// provider.
public struct ChainedDocuments: StaticDocumentProvider {
    private let providers: [any StaticDocumentProvider]

    public init(_ providers: [any StaticDocumentProvider]) { self.providers = providers }

    public func document(path: String, host: String) -> StaticDocument? {
        for provider in providers {
            if let document = provider.document(path: path, host: host) { return document }
        }
        return nil
    }

    /// The first provider's answer that is not a 404: a document, or a provider's refusal of a path it owns
    /// (the canOpen table GET's 400 for a bad version), so chaining keeps every provider's own answers; when
    /// all say 404, the last one's (the registry's, which names an unknown app).
    public func lookup(path: String, host: String) -> DocumentLookup {
        var missing = DocumentLookup.notFound
        for provider in providers {
            let answer = provider.lookup(path: path, host: host)
            if case .refused(404, _) = answer {
                missing = answer
                continue
            }
            return answer
        }
        return missing
    }
}
