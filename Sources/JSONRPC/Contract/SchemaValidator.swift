import JSONBytes

/// One broken rule: where (`route.platforms.ios.since`, `routes[2].id`) and what the document demands.
struct SchemaViolation: Error, Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    /// Innermost step first (added while unwinding).
    var steps: [Step] = []
    var rule: String

    init(_ rule: String) { self.rule = rule }

    /// The field path in the server's usual notation.
    var field: String {
        var out = ""
        for step in steps.reversed() {
            switch step {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += key
            case .index(let index): out += "[\(index)]"
            }
        }
        return out
    }

    var fieldViolation: RPCFieldViolation { RPCFieldViolation(field: field, description: rule) }
}

/// Checks raw JSON bytes against a `CompiledSchema`, without building a tree or decoding.
///
/// The bytes were already checked as JSON by the dispatcher's scanner, so this follows the shape only. The
/// common, valid call allocates nothing: strings without escapes are checked in place, object members are
/// found by comparing bytes, and an error path is only built while unwinding from a violation.
struct SchemaValidator {
    let schema: CompiledSchema
    let bytes: UnsafeBufferPointer<UInt8>

    /// Checks the value starting at `start` against node `index`; returns the index after the value.
    func validate(_ index: Int, at start: Int) throws(SchemaViolation) -> Int {
        try validate(index, at: start, title: nil)
    }

    private func validate(_ index: Int, at start: Int, title: String?) throws(SchemaViolation) -> Int {
        let node = schema.nodes[index]
        let title = node.title ?? title
        let kind = kind(at: start)
        guard node.kinds.contains(kind) || (kind == .integer && node.kinds.contains(.number)) else {
            throw SchemaViolation(typeRule(node.kinds, title: title, found: kind))
        }
        var end = start
        switch kind {
        case .string: end = try string(node, at: start, title: title)
        case .object: end = try object(node, at: start)
        case .array: end = try array(node, at: start)
        case .integer, .number: end = try number(node, at: start, kind: kind)
        default: end = skip(start)
        }
        for branch in node.allOf { _ = try validate(branch, at: start, title: title) }
        if !node.anyOf.isEmpty { try someOf(node.anyOf, at: start, exactlyOne: false, title: title) }
        if !node.oneOf.isEmpty { try someOf(node.oneOf, at: start, exactlyOne: true, title: title) }
        return end
    }

    /// The kind of the value at `start` (an integer is a number written without fraction or exponent).
    private func kind(at start: Int) -> CompiledSchema.Kinds {
        switch bytes[start] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default:
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return .number
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): i += 1
                default: return .integer
                }
            }
            return .integer
        }
    }

    private func typeRule(_ allowed: CompiledSchema.Kinds, title: String?, found: CompiledSchema.Kinds) -> String {
        let what = found == .integer ? CompiledSchema.Kinds.number : found
        let named = title.map { " (\($0))" } ?? ""
        if allowed.isEmpty { return "is not allowed here" }
        return "must be \(allowed.phrase)\(named), not \(what.phrase)"
    }

    private func skip(_ start: Int) -> Int {
        var scanner = JSONScanner(bytes, maxDepth: .max, start: start)
        try? scanner.skipValue(depth: 0)
        return scanner.index
    }

    private func skipSpace(_ index: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    // MARK: strings

    /// A string's contents: in place when it has no escapes, else decoded. `end` is after the closing quote.
    struct StringValue {
        var raw: Range<Int>
        var decoded: [UInt8]?
        var scalars: Int
        var end: Int
    }

    /// Reads the string at `start`; an escaped unpaired surrogate (not Unicode text) is a violation. Its
    /// escapes are decoded into `decoded` only when `decode` asks for the text (a length needs no copy).
    func readString(at start: Int, decode: Bool = true) throws(SchemaViolation) -> StringValue {
        var i = start + 1
        var decoded: [UInt8]?
        var scalars = 0
        while bytes[i] != UInt8(ascii: "\"") {
            let byte = bytes[i]
            if byte != UInt8(ascii: "\\") {
                if byte & 0xC0 != 0x80 { scalars += 1 }
                decoded?.append(byte)
                i += 1
                continue
            }
            if decode, decoded == nil { decoded = Array(bytes[(start + 1)..<i]) }
            let escape = bytes[i + 1]
            i += 2
            scalars += 1
            switch escape {
            case UInt8(ascii: "b"): decoded?.append(0x08)
            case UInt8(ascii: "f"): decoded?.append(0x0C)
            case UInt8(ascii: "n"): decoded?.append(0x0A)
            case UInt8(ascii: "r"): decoded?.append(0x0D)
            case UInt8(ascii: "t"): decoded?.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                        (0xDC00...0xDFFF).contains(hex4(at: i + 2))
                    else { throw SchemaViolation("must be Unicode text (it holds an unpaired surrogate \\u escape)") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(at: i + 2) - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw SchemaViolation("must be Unicode text (it holds an unpaired surrogate \\u escape)")
                }
                if decoded != nil { decoded!.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8) }
            default: decoded?.append(escape)
            }
        }
        return StringValue(raw: (start + 1)..<i, decoded: decoded, scalars: scalars, end: i + 1)
    }

    private func hex4(at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8 =
                byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func string(_ node: CompiledSchema.Rule, at start: Int, title: String?) throws(SchemaViolation) -> Int {
        let value = try readString(at: start, decode: node.readsText)
        if let minimum = node.minLength, value.scalars < minimum {
            throw SchemaViolation(
                minimum == 1
                    ? "must not be empty (minLength 1)"
                    : "must be at least \(minimum) characters long (minLength \(minimum))")
        }
        if let maximum = node.maxLength, value.scalars > maximum {
            throw SchemaViolation(
                "must be at most \(maximum) characters long (maxLength \(maximum)); it has \(value.scalars)")
        }
        if node.readsText {
            let matched: (enumOK: Bool, patternOK: Bool)
            if let decoded = value.decoded {
                matched = decoded.withUnsafeBufferPointer { check(node, $0) }
            } else {
                matched = check(node, UnsafeBufferPointer(rebasing: bytes[value.raw]))
            }
            if !matched.enumOK, let values = node.enumValues {
                let list = values.map { "\"\(String(decoding: $0, as: UTF8.self))\"" }
                throw SchemaViolation(
                    values.count == 1 ? "must be \(list[0])" : "must be one of \(list.joined(separator: ", "))")
            }
            if !matched.patternOK, let pattern = node.pattern {
                let named = node.hint.map { ": \($0)" } ?? title.map { " (\($0))" } ?? ""
                throw SchemaViolation("must match the pattern \(pattern.source)\(named)")
            }
        }
        return value.end
    }

    private func check(_ node: CompiledSchema.Rule, _ text: UnsafeBufferPointer<UInt8>) -> (Bool, Bool) {
        let enumOK = node.enumValues.map { $0.contains { $0.elementsEqual(text) } } ?? true
        let patternOK = enumOK ? (node.pattern?.matches(text) ?? true) : true
        return (enumOK, patternOK)
    }

    // MARK: numbers

    private func number(
        _ node: CompiledSchema.Rule, at start: Int, kind: CompiledSchema.Kinds
    ) throws(SchemaViolation) -> Int {
        let end = skip(start)
        guard node.minimum != nil || node.maximum != nil || kind == .integer else { return end }
        // Integers are read exactly; a number (or an integer too long for 64 bits) as a Double.
        var value: Double
        var exact: Int64? = 0
        var negative = false
        for byte in bytes[start..<end] {
            if byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard kind == .integer, let current = exact else { break }
            let (times, overflow1) = current.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            exact = overflow1 || overflow2 ? nil : plus
        }
        if kind == .integer, let exact {
            value = Double(negative ? -exact : exact)
        } else {
            value = Double(String(decoding: bytes[start..<end], as: UTF8.self)) ?? .infinity
            if kind == .integer, !node.kinds.contains(.number) {
                throw SchemaViolation("must be an integer between \(Int64.min) and \(Int64.max)")
            }
        }
        if let minimum = node.minimum, value < minimum {
            throw SchemaViolation("must be at least \(Self.text(minimum)) (minimum \(Self.text(minimum)))")
        }
        if let maximum = node.maximum, value > maximum {
            throw SchemaViolation("must be at most \(Self.text(maximum)) (maximum \(Self.text(maximum)))")
        }
        return end
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    // MARK: containers

    private func object(_ node: CompiledSchema.Rule, at start: Int) throws(SchemaViolation) -> Int {
        var seen: UInt64 = 0
        var i = start + 1
        skipSpace(&i)
        if bytes[i] == UInt8(ascii: "}") {
            return try finishObject(node, seen: seen, end: i + 1)
        }
        while true {
            skipSpace(&i)
            let key = try readString(at: i)
            i = key.end
            skipSpace(&i)
            i += 1  // ':'
            skipSpace(&i)
            let slot = slot(of: key, in: node)
            do throws(SchemaViolation) {
                if let slot {
                    guard seen & (1 << UInt64(slot)) == 0 else { throw SchemaViolation("appears more than once") }
                    seen |= 1 << UInt64(slot)
                    i = try validate(node.properties[slot].node, at: i)
                } else {
                    if let names = node.propertyNames {
                        do throws(SchemaViolation) { _ = try validate(names, at: key.raw.lowerBound - 1) } catch {
                            throw SchemaViolation("is not an allowed name: \(error.rule)")
                        }
                    }
                    switch node.additionalProperties {
                    case .none: i = skip(i)
                    case .some(.none): throw SchemaViolation("is not a field of this method")
                    case .some(.some(let other)): i = try validate(other, at: i)
                    }
                }
            } catch {
                var error = error
                error.steps.append(.key(name(of: key)))
                throw error
            }
            skipSpace(&i)
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            return try finishObject(node, seen: seen, end: i + 1)
        }
    }

    private func finishObject(_ node: CompiledSchema.Rule, seen: UInt64, end: Int) throws(SchemaViolation) -> Int {
        for slot in node.required where seen & (1 << UInt64(slot)) == 0 {
            var error = SchemaViolation("is required")
            error.steps.append(.key(node.properties[slot].name))
            throw error
        }
        return end
    }

    private func slot(of key: StringValue, in node: CompiledSchema.Rule) -> Int? {
        for (offset, property) in node.properties.enumerated() {
            if let decoded = key.decoded {
                if property.key == decoded { return offset }
            } else if property.key.elementsEqual(bytes[key.raw]) {
                return offset
            }
        }
        return nil
    }

    /// A member name for an error path: cut short, so a 100 KB key is not echoed.
    private func name(of key: StringValue) -> String {
        let text =
            key.decoded.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: bytes[key.raw], as: UTF8.self)
        return ErrorText.cut(text, to: 64)
    }

    private func array(_ node: CompiledSchema.Rule, at start: Int) throws(SchemaViolation) -> Int {
        var i = start + 1
        var count = 0
        var items: [Range<Int>] = []
        skipSpace(&i)
        if bytes[i] != UInt8(ascii: "]") {
            while true {
                skipSpace(&i)
                let itemStart = i
                do throws(SchemaViolation) {
                    if let item = node.items { i = try validate(item, at: i) } else { i = skip(i) }
                } catch {
                    var error = error
                    error.steps.append(.index(count))
                    throw error
                }
                if node.uniqueItems { items.append(itemStart..<i) }
                count += 1
                skipSpace(&i)
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                break
            }
        }
        if let minimum = node.minItems, count < minimum {
            throw SchemaViolation(
                minimum == 1
                    ? "must not be empty (minItems 1)" : "must have at least \(minimum) items (minItems \(minimum))")
        }
        if let maximum = node.maxItems, count > maximum {
            throw SchemaViolation("must have at most \(maximum) items (maxItems \(maximum)); it has \(count)")
        }
        if node.uniqueItems { try unique(items) }
        return i + 1
    }

    /// Items compared as values: strings by their decoded text, anything else by its bytes without spaces.
    private func unique(_ items: [Range<Int>]) throws(SchemaViolation) {
        var first: [[UInt8]: Int] = [:]
        for (offset, range) in items.enumerated() {
            var canonical: [UInt8]
            if bytes[range.lowerBound] == UInt8(ascii: "\"") {
                let value = try readString(at: range.lowerBound)
                canonical = [UInt8(ascii: "\"")] + (value.decoded ?? Array(bytes[value.raw]))
            } else {
                canonical = bytes[range].filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
            }
            if let earlier = first[canonical] {
                var error = SchemaViolation("repeats item \(earlier) (uniqueItems)")
                error.steps.append(.index(offset))
                throw error
            }
            first[canonical] = offset
        }
    }

    /// anyOf / oneOf. Only the branches whose `type` admits the value are tried, so a value that is plainly
    /// meant for one branch gets that branch's own error (`until` must match the Version pattern), not a
    /// vague "matches no alternative".
    private func someOf(_ branches: [Int], at start: Int, exactlyOne: Bool, title: String?) throws(SchemaViolation) {
        let kind = kind(at: start)
        let candidates = branches.filter { admits(schema.nodes[$0], kind) }
        guard !candidates.isEmpty else {
            let allowed = branches.reduce(into: CompiledSchema.Kinds()) { $0.formUnion(kinds(of: schema.nodes[$1])) }
            throw SchemaViolation(typeRule(allowed, title: title, found: kind))
        }
        var firstError: SchemaViolation?
        var matched = 0
        for branch in candidates {
            do throws(SchemaViolation) {
                _ = try validate(branch, at: start, title: title)
                matched += 1
                if !exactlyOne { return }
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if matched == 1 || (matched > 1 && !exactlyOne) { return }
        if matched > 1 { throw SchemaViolation("matches more than one of the alternatives the API allows (oneOf)") }
        throw firstError!
    }

    /// The kinds a node admits, looking through references.
    private func kinds(of node: CompiledSchema.Rule) -> CompiledSchema.Kinds {
        var kinds = node.kinds
        for branch in node.allOf { kinds.formIntersection(self.kinds(of: schema.nodes[branch])) }
        if !node.anyOf.isEmpty || !node.oneOf.isEmpty {
            let union = (node.anyOf + node.oneOf).reduce(into: CompiledSchema.Kinds()) {
                $0.formUnion(self.kinds(of: schema.nodes[$1]))
            }
            kinds.formIntersection(union)
        }
        if kinds.contains(.number) { kinds.insert(.integer) }
        return kinds
    }

    private func admits(_ node: CompiledSchema.Rule, _ kind: CompiledSchema.Kinds) -> Bool {
        kinds(of: node).contains(kind)
    }
}
