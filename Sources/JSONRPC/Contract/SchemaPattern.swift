/// A JSON Schema `pattern`, compiled once and matched against UTF-8 bytes without allocating.
///
/// Why not `NSRegularExpression` or `Regex`: the patterns run on every call, `CanOpen.Check` included, and
/// both of those bridge or allocate per match. The API's patterns use a small subset of ECMA-262 (anchors,
/// classes, groups, alternation, greedy quantifiers, `.`, lookahead), which this backtracking matcher
/// covers; a pattern outside the subset fails to compile, so the server refuses to start rather than skip
/// a rule. Classes hold ASCII only; `.` and negated classes take one whole UTF-8 scalar. Matching is bounded
/// (steps and nesting), so a hostile value cannot turn a check into a long computation or a deep stack: an
/// input past the bounds counts as not matching.
struct SchemaPattern: Sendable {
    /// The pattern as written in the document, for error messages.
    let source: String
    private let root: Node
    private let anchoredAtStart: Bool
    private let recent = RecentMatches()

    /// Why a pattern could not be compiled.
    struct Unsupported: Error, CustomStringConvertible {
        let pattern: String
        let reason: String
        var description: String { "pattern \(pattern): \(reason)" }
    }

    indirect enum Node: Sendable {
        case set(ASCIISet, negated: Bool)
        case any
        case sequence([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int)
        case lookahead(Node)
        case start
        case end
    }

    /// A set of ASCII bytes as a 128-bit map.
    struct ASCIISet: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }

        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 ? high & (1 << UInt64(byte - 64)) != 0 : false
        }
    }

    init(_ source: String) throws(Unsupported) {
        self.source = source
        var parser = Parser(bytes: Array(source.utf8), source: source)
        let node = try parser.parseAlternation()
        guard parser.index == parser.bytes.count else { throw Unsupported(pattern: source, reason: "unbalanced )") }
        root = node
        if case .sequence(let nodes) = node, case .start = nodes.first {
            anchoredAtStart = true
        } else {
            anchoredAtStart = false
        }
    }

    /// True when the pattern matches somewhere in `text` (JSON Schema patterns are not implicitly anchored).
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if recent.contains(text) { return true }
        guard match(text) else { return false }
        recent.insert(text)
        return true
    }

    func matches(_ text: [UInt8]) -> Bool { text.withUnsafeBufferPointer { matches($0) } }

    private func match(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var budget = Budget()
        let starts = anchoredAtStart ? 0...0 : 0...text.count
        for start in starts {
            var matcher = Matcher(text: text, budget: budget)
            if matcher.match(root, start, depth: 0, { _, _ in true }) { return true }
            if matcher.budget.exhausted { return false }
            budget = matcher.budget
        }
        return false
    }

    struct Budget {
        var steps = 200_000
        var exhausted: Bool { steps <= 0 }
    }

    private struct Matcher {
        let text: UnsafeBufferPointer<UInt8>
        var budget: Budget
        static let maxDepth = 2_000

        /// The end of the scalar starting at `index` (UTF-8 lead byte → its length).
        func scalarEnd(_ index: Int) -> Int {
            let lead = text[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            return min(text.count, index + length)
        }

        /// Where one occurrence of a single-character node ends at `index`, or nil.
        func single(_ node: Node, _ index: Int) -> Int? {
            guard index < text.count else { return nil }
            let byte = text[index]
            switch node {
            case .any: return byte == 0x0A || byte == 0x0D ? nil : scalarEnd(index)
            case .set(let set, let negated):
                if negated { return set.contains(byte) ? nil : scalarEnd(index) }
                return set.contains(byte) ? index + 1 : nil
            default: return nil
            }
        }

        mutating func match(_ node: Node, _ index: Int, depth: Int, _ next: (inout Matcher, Int) -> Bool) -> Bool {
            budget.steps -= 1
            guard !budget.exhausted, depth < Self.maxDepth else {
                budget.steps = 0
                return false
            }
            switch node {
            case .set, .any:
                guard let end = single(node, index) else { return false }
                return next(&self, end)
            case .start: return index == 0 && next(&self, index)
            case .end: return index == text.count && next(&self, index)
            case .lookahead(let inner):
                guard match(inner, index, depth: depth + 1, { _, _ in true }) else { return false }
                return next(&self, index)
            case .alternation(let branches):
                for branch in branches where match(branch, index, depth: depth + 1, next) { return true }
                return false
            case .sequence(let nodes):
                return sequence(nodes, 0, index, depth: depth + 1, next)
            case .repetition(let inner, let min, let max):
                if case .set = inner { return simpleRepeat(inner, min, max, index, next) }
                if case .any = inner { return simpleRepeat(inner, min, max, index, next) }
                return repeatGroup(inner, min, max, 0, index, depth: depth + 1, next)
            }
        }

        private mutating func sequence(
            _ nodes: [Node], _ position: Int, _ index: Int, depth: Int, _ next: (inout Matcher, Int) -> Bool
        ) -> Bool {
            if position == nodes.count { return next(&self, index) }
            return match(nodes[position], index, depth: depth) { matcher, end in
                matcher.sequence(nodes, position + 1, end, depth: depth + 1, next)
            }
        }

        /// A quantified single character: runs found iteratively, longest first (no recursion per character).
        private mutating func simpleRepeat(
            _ inner: Node, _ min: Int, _ max: Int, _ index: Int, _ next: (inout Matcher, Int) -> Bool
        ) -> Bool {
            var count = 0
            var end = index
            while count < max, let after = single(inner, end) {
                count += 1
                end = after
            }
            while count >= min {
                budget.steps -= 1
                if budget.exhausted { return false }
                if next(&self, end) { return true }
                guard count > min else { return false }
                // Back off one scalar (the text is valid UTF-8: skip continuation bytes).
                end -= 1
                while end > index, text[end] & 0xC0 == 0x80 { end -= 1 }
                count -= 1
            }
            return false
        }

        private mutating func repeatGroup(
            _ inner: Node, _ min: Int, _ max: Int, _ count: Int, _ index: Int, depth: Int,
            _ next: (inout Matcher, Int) -> Bool
        ) -> Bool {
            if count < max {
                let matched = match(inner, index, depth: depth) { matcher, end in
                    // An empty iteration cannot make progress: stop repeating there.
                    end != index && matcher.repeatGroup(inner, min, max, count + 1, end, depth: depth + 1, next)
                }
                if matched { return true }
            }
            return count >= min && next(&self, index)
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        let source: String
        var index = 0

        func fail(_ reason: String) -> Unsupported { Unsupported(pattern: source, reason: reason) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func parseAlternation() throws(Unsupported) -> Node {
            var branches = [try parseSequence()]
            while current == UInt8(ascii: "|") {
                index += 1
                branches.append(try parseSequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseSequence() throws(Unsupported) -> Node {
            var nodes: [Node] = []
            while let byte = current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                var atom = try parseAtom()
                atom = try parseQuantifier(atom)
                nodes.append(atom)
            }
            return .sequence(nodes)
        }

        mutating func parseAtom() throws(Unsupported) -> Node {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "^"): return .start
            case UInt8(ascii: "$"): return .end
            case UInt8(ascii: "."): return .any
            case UInt8(ascii: "("):
                var lookahead = false
                if current == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count else { throw fail("unfinished group") }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "="): lookahead = true
                    case UInt8(ascii: ":"): break
                    default: throw fail("only (?:…) and (?=…) groups are supported")
                    }
                    index += 2
                }
                let inner = try parseAlternation()
                guard current == UInt8(ascii: ")") else { throw fail("unclosed (") }
                index += 1
                return lookahead ? .lookahead(inner) : inner
            case UInt8(ascii: "["): return try parseClass()
            case UInt8(ascii: "\\"): return try parseEscape(inClass: false).node
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                throw fail("quantifier without an atom")
            default:
                guard byte < 0x80 else { throw fail("non-ASCII literal") }
                var set = ASCIISet()
                set.insert(byte)
                return .set(set, negated: false)
            }
        }

        mutating func parseQuantifier(_ atom: Node) throws(Unsupported) -> Node {
            guard let byte = current else { return atom }
            let bounds: (Int, Int)
            switch byte {
            case UInt8(ascii: "*"): bounds = (0, .max)
            case UInt8(ascii: "+"): bounds = (1, .max)
            case UInt8(ascii: "?"): bounds = (0, 1)
            case UInt8(ascii: "{"):
                index += 1
                let low = readNumber()
                var high = low
                if current == UInt8(ascii: ",") {
                    index += 1
                    high = current == UInt8(ascii: "}") ? .max : readNumber()
                }
                guard let low, let high, current == UInt8(ascii: "}"), low <= high else {
                    throw fail("malformed {m,n}")
                }
                bounds = (low, high)
            default: return atom
            }
            index += 1
            if current == UInt8(ascii: "?") { throw fail("lazy quantifiers are not supported") }
            return .repetition(atom, min: bounds.0, max: bounds.1)
        }

        mutating func readNumber() -> Int? {
            var value: Int?
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), (value ?? 0) < 100_000 {
                value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        mutating func parseClass() throws(Unsupported) -> Node {
            var set = ASCIISet()
            let negated = current == UInt8(ascii: "^")
            if negated { index += 1 }
            var first = true
            while let byte = current, byte != UInt8(ascii: "]") || first {
                first = false
                var low: UInt8
                index += 1
                if byte == UInt8(ascii: "\\") {
                    let escape = try parseEscape(inClass: true)
                    guard let literal = escape.literal else {
                        if case .set(let escaped, false) = escape.node {
                            set.low |= escaped.low
                            set.high |= escaped.high
                        }
                        continue
                    }
                    low = literal
                } else {
                    guard byte < 0x80 else { throw fail("non-ASCII class member") }
                    low = byte
                }
                if current == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "]") {
                    index += 1
                    var high = bytes[index]
                    index += 1
                    if high == UInt8(ascii: "\\") {
                        guard let literal = try parseEscape(inClass: true).literal else { throw fail("bad range") }
                        high = literal
                    }
                    guard high < 0x80, low <= high else { throw fail("bad range") }
                    for member in low...high { set.insert(member) }
                } else {
                    set.insert(low)
                }
            }
            guard current == UInt8(ascii: "]") else { throw fail("unclosed [") }
            index += 1
            return .set(set, negated: negated)
        }

        /// An escape after `\`: a literal byte, or a class (`\d`, `\w`, `\s`).
        mutating func parseEscape(inClass: Bool) throws(Unsupported) -> (node: Node, literal: UInt8?) {
            guard let byte = current else { throw fail("trailing \\") }
            index += 1
            var set = ASCIISet()
            func range(_ low: Character, _ high: Character) {
                for member in low.asciiValue!...high.asciiValue! { set.insert(member) }
            }
            switch byte {
            case UInt8(ascii: "d"): range("0", "9")
            case UInt8(ascii: "w"):
                range("0", "9")
                range("a", "z")
                range("A", "Z")
                set.insert(UInt8(ascii: "_"))
            case UInt8(ascii: "s"):
                for member in [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C] as [UInt8] { set.insert(member) }
            case UInt8(ascii: "n"): return literal(0x0A)
            case UInt8(ascii: "t"): return literal(0x09)
            case UInt8(ascii: "r"): return literal(0x0D)
            default:
                guard byte < 0x80, !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")),
                    !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")),
                    !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                else { throw fail("unsupported escape \\\(Character(UnicodeScalar(byte)))") }
                return literal(byte)
            }
            return (.set(set, negated: false), nil)
        }

        private func literal(_ byte: UInt8) -> (node: Node, literal: UInt8?) {
            var set = ASCIISet()
            set.insert(byte)
            return (.set(set, negated: false), byte)
        }
    }
}
