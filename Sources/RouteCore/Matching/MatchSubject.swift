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

/// The query split into items in one matching form: names and values are ranges of one byte buffer, so
/// splitting costs two allocations however many items there are.
struct QueryItems {
    /// Each item's name and value as `(nameStart, nameEnd, valueStart, valueEnd)` into `bytes`; a valueless
    /// item (`?flag`) has an empty value.
    var ranges: [(Int32, Int32, Int32, Int32)] = []
    var bytes: [UInt8] = []

    /// Splits on `&` and the first `=`; empty pieces are skipped. Each name and value is transformed on its
    /// own, so a decoded `%26` or `%3D` never splits anything.
    init(_ query: Substring.UTF8View, form: MatchForm) {
        bytes.reserveCapacity(query.count)
        for piece in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let nameStart = Int32(bytes.count)
            append(piece[..<(equals ?? piece.endIndex)], form)
            let nameEnd = Int32(bytes.count)
            if let equals { append(piece[piece.index(after: equals)...], form) }
            ranges.append((nameStart, nameEnd, nameEnd, Int32(bytes.count)))
        }
    }

    private mutating func append(_ text: Substring.UTF8View.SubSequence, _ form: MatchForm) {
        if !form.decoded && !form.folded {
            bytes.append(contentsOf: text)
        } else {
            bytes.append(contentsOf: TextForms.transformed(Array(text), decoded: form.decoded, folded: form.folded))
        }
    }
}

/// Four optional slots, one per `MatchForm`, without the allocation of an array.
struct PerForm<Value> {
    private var slots: (Value?, Value?, Value?, Value?) = (nil, nil, nil, nil)

    subscript(_ form: MatchForm) -> Value? {
        get {
            switch form.index {
            case 0: return slots.0
            case 1: return slots.1
            case 2: return slots.2
            default: return slots.3
            }
        }
        set {
            switch form.index {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            default: slots.3 = newValue
            }
        }
    }
}

/// A URL prepared for matching, once per decision: each form of each component is computed the first time
/// a rule asks for it and then shared by every rule that compares in that form.
struct MatchSubject {
    let url: LinkURL
    private var paths = PerForm<[UInt8]>()
    private var queries = PerForm<[UInt8]>()
    private var fragments = PerForm<[UInt8]>()
    private var items = PerForm<QueryItems>()

    init(_ url: LinkURL) { self.url = url }

    /// The canonical path (see `TextForms.canonicalPath`) in `form`.
    mutating func path(_ form: MatchForm) -> [UInt8] {
        if let cached = paths[form] { return cached }
        var bytes: [UInt8]
        if form.decoded {
            bytes = TextForms.canonicalPath(TextForms.percentDecoded(Array(url.path.utf8)))
        } else {
            var path = url.path
            bytes = path.withUTF8 { TextForms.canonicalPath($0) }
        }
        if form.folded {
            // Folding keeps every '/' in place, so the folded canonical path is the canonical folded path.
            bytes = TextForms.folded(bytes)
        }
        paths[form] = bytes
        return bytes
    }

    /// The whole query in `form` ("" when absent).
    mutating func query(_ form: MatchForm) -> [UInt8] {
        if let cached = queries[form] { return cached }
        let bytes = TextForms.transformed(Array((url.query ?? "").utf8), decoded: form.decoded, folded: form.folded)
        queries[form] = bytes
        return bytes
    }

    /// The fragment in `form` ("" when absent).
    mutating func fragment(_ form: MatchForm) -> [UInt8] {
        if let cached = fragments[form] { return cached }
        let bytes = TextForms.transformed(
            Array((url.fragment ?? "").utf8), decoded: form.decoded, folded: form.folded)
        fragments[form] = bytes
        return bytes
    }

    /// Calls `body` with the query as written (empty when absent), without copying it.
    func withRawQuery<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard var query = url.query else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return query.withUTF8(body)
    }

    /// The query items in `form`.
    mutating func queryItems(_ form: MatchForm) -> QueryItems {
        if let cached = items[form] { return cached }
        let result = QueryItems(Substring(url.query ?? "").utf8, form: form)
        items[form] = result
        return result
    }
}
