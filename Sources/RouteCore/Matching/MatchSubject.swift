/// How a rule looks at a URL: as written or percent-decoded, case-sensitive or folded. Four forms, indexed
/// `decoded << 1 | folded`.
struct MatchForm: Sendable, Hashable {
    let index: Int

    init(caseSensitive: Bool, percentEncoded: Bool) {
        index = (percentEncoded ? 0 : 2) | (caseSensitive ? 0 : 1)
    }

    init(index: Int) { self.index = index }

    var decoded: Bool { index & 2 != 0 }
    var folded: Bool { index & 1 != 0 }
    static let all = (0..<4).map(MatchForm.init(index:))
}

/// One query item in a matching form; a valueless item (`?flag`) has an empty value.
struct QueryItem: Sendable, Hashable {
    var name: [UInt8]
    var value: [UInt8]
}

/// A URL prepared for matching, once per decision: each form of each component is computed the first time
/// a rule asks for it and then shared by every rule that compares in that form.
struct MatchSubject {
    let url: LinkURL
    private var paths: [[UInt8]?] = [nil, nil, nil, nil]
    private var queries: [[UInt8]?] = [nil, nil, nil, nil]
    private var fragments: [[UInt8]?] = [nil, nil, nil, nil]
    private var items: [[QueryItem]?] = [nil, nil, nil, nil]

    init(_ url: LinkURL) { self.url = url }

    /// The canonical path (see `TextForms.canonicalPath`) in `form`.
    mutating func path(_ form: MatchForm) -> [UInt8] {
        if let cached = paths[form.index] { return cached }
        var bytes = Array(url.path.utf8)
        if form.decoded { bytes = TextForms.percentDecoded(bytes) }
        bytes = TextForms.canonicalPath(bytes)
        if form.folded { bytes = TextForms.folded(bytes) }
        paths[form.index] = bytes
        return bytes
    }

    /// The whole query in `form` ("" when absent).
    mutating func query(_ form: MatchForm) -> [UInt8] {
        if let cached = queries[form.index] { return cached }
        let bytes = Self.transformed(Array((url.query ?? "").utf8), form)
        queries[form.index] = bytes
        return bytes
    }

    /// The fragment in `form` ("" when absent).
    mutating func fragment(_ form: MatchForm) -> [UInt8] {
        if let cached = fragments[form.index] { return cached }
        let bytes = Self.transformed(Array((url.fragment ?? "").utf8), form)
        fragments[form.index] = bytes
        return bytes
    }

    /// The query split on `&` and the first `=`, names and values each in `form`; empty pieces are skipped.
    mutating func queryItems(_ form: MatchForm) -> [QueryItem] {
        if let cached = items[form.index] { return cached }
        let raw = Array((url.query ?? "").utf8)
        var result: [QueryItem] = []
        for piece in raw.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: ArraySlice<UInt8>
            let value: ArraySlice<UInt8>
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                name = piece[..<equals]
                value = piece[(equals + 1)...]
            } else {
                name = piece
                value = []
            }
            result.append(
                QueryItem(name: Self.transformed(Array(name), form), value: Self.transformed(Array(value), form)))
        }
        items[form.index] = result
        return result
    }

    private static func transformed(_ bytes: [UInt8], _ form: MatchForm) -> [UInt8] {
        var bytes = bytes
        if form.decoded { bytes = TextForms.percentDecoded(bytes) }
        if form.folded { bytes = TextForms.folded(bytes) }
        return bytes
    }
}
