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

/// Four optional byte strings, one per `MatchForm`, without the allocation of an array (and concrete, so
/// the hot path needs no generic metadata).
struct BytesPerForm {
    private var slot0: [UInt8]?
    private var slot1: [UInt8]?
    private var slot2: [UInt8]?
    private var slot3: [UInt8]?

    subscript(_ form: MatchForm) -> [UInt8]? {
        get {
            switch form.index {
            case 0: return slot0
            case 1: return slot1
            case 2: return slot2
            default: return slot3
            }
        }
        set {
            switch form.index {
            case 0: slot0 = newValue
            case 1: slot1 = newValue
            case 2: slot2 = newValue
            default: slot3 = newValue
            }
        }
    }
}

/// A URL prepared for matching, once per decision: each form of each component is computed the first time
/// a rule asks for it and then shared by every rule that compares in that form. The URL itself is passed
/// to every call rather than stored, so preparing a subject copies (and retains) nothing.
struct MatchSubject {
    private var paths = BytesPerForm()
    private var queries = BytesPerForm()
    private var fragments = BytesPerForm()
    /// Split queries are only needed by rules in a non-default form, so one small dictionary will do.
    private var items: [Int: QueryItems] = [:]

    init() {}

    /// The canonical path (see `TextForms.canonicalPath`) of `url` in `form`. A form that changes nothing
    /// (no `%`, no upper case) shares the bytes of the form as written instead of allocating.
    mutating func path(_ form: MatchForm, _ url: LinkURL) -> [UInt8] {
        if let cached = paths[form] { return cached }
        var bytes: [UInt8]
        if form.index == 0 {
            var path = url.path
            bytes = path.withUTF8 { TextForms.canonicalPath($0) }
        } else {
            bytes = self.path(MatchForm(index: 0), url)
            if form.decoded && bytes.contains(UInt8(ascii: "%")) {
                bytes = TextForms.canonicalPath(TextForms.percentDecoded(Array(url.path.utf8)))
            }
            // Folding keeps every '/' in place, so the folded canonical path is the canonical folded path.
            if form.folded && TextForms.needsFolding(bytes) { bytes = TextForms.folded(bytes) }
        }
        paths[form] = bytes
        return bytes
    }

    /// The whole query of `url` in `form` ("" when absent).
    mutating func query(_ form: MatchForm, _ url: LinkURL) -> [UInt8] {
        if let cached = queries[form] { return cached }
        let bytes = TextForms.transformed(Array((url.query ?? "").utf8), decoded: form.decoded, folded: form.folded)
        queries[form] = bytes
        return bytes
    }

    /// The fragment of `url` in `form` ("" when absent).
    mutating func fragment(_ form: MatchForm, _ url: LinkURL) -> [UInt8] {
        if let cached = fragments[form] { return cached }
        let bytes = TextForms.transformed(
            Array((url.fragment ?? "").utf8), decoded: form.decoded, folded: form.folded)
        fragments[form] = bytes
        return bytes
    }

    /// Calls `body` with the query of `url` as written (empty when absent), without copying it.
    func withRawQuery<Result>(_ url: LinkURL, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard var query = url.query else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return query.withUTF8(body)
    }

    /// The query items of `url` in `form`.
    mutating func queryItems(_ form: MatchForm, _ url: LinkURL) -> QueryItems {
        if let cached = items[form.index] { return cached }
        let result = QueryItems(Substring(url.query ?? "").utf8, form: form)
        items[form.index] = result
        return result
    }
}
