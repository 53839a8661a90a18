/// A `ComponentRule` compiled for matching: each component a `CompiledPattern` in the rule's form.
final class CompiledRule: Sendable {
    /// A compiled `?` component.
    enum Query: Sendable {
        case string(CompiledPattern)
        case items([(name: [UInt8], pattern: CompiledPattern)])
    }

    let form: MatchForm
    let path: CompiledPattern?
    let query: Query?
    let fragment: CompiledPattern?

    init(_ rule: ComponentRule, variables: SubstitutionVariables) {
        let form = MatchForm(caseSensitive: rule.caseSensitive, percentEncoded: rule.percentEncoded)
        let folded = form.folded
        self.form = form
        path = rule.path.map { CompiledPattern($0, isPath: true, folded: folded, variables: variables) }
        fragment = rule.fragment.map { CompiledPattern($0, isPath: false, folded: folded, variables: variables) }
        switch rule.query {
        case nil:
            query = nil
        case .string(let pattern)?:
            query = .string(CompiledPattern(pattern, isPath: false, folded: folded, variables: variables))
        case .items(let items)?:
            // Sorted so that compilation (and therefore evaluation order) does not depend on hashing.
            query = .items(
                items.sorted { $0.key < $1.key }.map { name, pattern in
                    let nameBytes = Array(name.utf8)
                    return (
                        folded ? TextForms.folded(nameBytes) : nameBytes,
                        CompiledPattern(pattern, isPath: false, folded: folded, variables: variables)
                    )
                })
        }
    }

    /// True when every component the rule names matches the URL.
    func matches(_ subject: inout MatchSubject, _ url: LinkURL) -> Bool {
        if let path, !path.matches(subject.path(form, url)) { return false }
        if let fragment, !fragment.matches(subject.fragment(form, url)) { return false }
        switch query {
        case nil:
            return true
        case .string(let pattern)?:
            return pattern.matches(subject.query(form, url))
        case .items(let wanted)? where form.index == 0:
            return subject.withRawQuery(url) { Self.rawItemsMatch(wanted, $0) }
        case .items(let wanted)?:
            let items = subject.queryItems(form, url)
            return items.bytes.withUnsafeBufferPointer { bytes in
                for (name, pattern) in wanted {
                    var seen = false
                    for (nameStart, nameEnd, valueStart, valueEnd) in items.ranges
                    where name.elementsEqual(bytes[Int(nameStart)..<Int(nameEnd)]) {
                        seen = true
                        let value = UnsafeBufferPointer(rebasing: bytes[Int(valueStart)..<Int(valueEnd)])
                        if !pattern.matches(value) { return false }
                    }
                    if !seen && !pattern.matchesEmpty { return false }
                }
                return true
            }
        }
    }

    /// The `.items` check on the query as written, scanning it in place: the common case (every rule in
    /// the default form, e.g. the fallback-marker exclusion) allocates nothing.
    private static func rawItemsMatch(
        _ wanted: [(name: [UInt8], pattern: CompiledPattern)], _ query: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        for (name, pattern) in wanted {
            var seen = false
            var start = 0
            while start <= query.count {
                var end = start
                while end < query.count && query[end] != UInt8(ascii: "&") { end += 1 }
                if end > start {
                    var equals = start
                    while equals < end && query[equals] != UInt8(ascii: "=") { equals += 1 }
                    if equals - start == name.count
                        && name.withUnsafeBufferPointer({ name in
                            (0..<name.count).allSatisfy { name[$0] == query[start + $0] }
                        })
                    {
                        seen = true
                        let valueStart = min(equals + 1, end)
                        let value = UnsafeBufferPointer(rebasing: query[valueStart..<end])
                        if !pattern.matches(value) { return false }
                    }
                }
                start = end + 1
            }
            if !seen && !pattern.matchesEmpty { return false }
        }
        return true
    }
}
