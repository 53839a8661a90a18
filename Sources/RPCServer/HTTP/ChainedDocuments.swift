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
}
