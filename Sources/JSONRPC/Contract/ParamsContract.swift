import Foundation

/// The params of every method as the OpenRPC document describes them, enforced before any decoding.
///
/// Compiled once from the document the server publishes (`rpc.discover`), so the document is the single
/// source of truth: a limit added there is enforced here, and the Swift input types only ever see params
/// that already satisfy it.
public struct ParamsContract: Sendable {
    private let schema: CompiledSchema
    private let roots: [String: Int]

    /// Compiles the params of every method of `document` (the OpenRPC JSON); throws on a schema keyword
    /// the server cannot enforce, so such a document fails at start-up rather than being partly ignored.
    public init(openRPC document: [UInt8]) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
            let methods = root["methods"] as? [[String: Any]]
        else { throw CompiledSchema.Failure(description: "not an OpenRPC document") }
        let components = (root["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        var compiler = SchemaCompiler(components: components)
        var roots: [String: Int] = [:]
        for method in methods {
            guard let name = method["name"] as? String, let params = method["params"] as? [[String: Any]] else {
                throw CompiledSchema.Failure(description: "a method without a name or params")
            }
            roots[name] = try compiler.compileParams(params, method: name)
        }
        self.schema = compiler.result
        self.roots = roots
    }

    /// The methods it describes.
    public var methodNames: [String] { roots.keys.sorted() }

    /// Checks a call's params (absent params count as `{}`); a violation names the field and the rule.
    /// Every string must also be storable (`UnstorableText`: no U+0000, no unpaired surrogate), whatever
    /// the method. Methods the document does not describe are not checked here.
    func check(method: String, params: ArraySlice<UInt8>?) throws(SchemaViolation) {
        guard let root = roots[method] else { return }
        guard let params else {
            try Self.empty.withUnsafeBufferPointer { (buffer) throws(SchemaViolation) in
                _ = try SchemaValidator(schema: schema, bytes: buffer).validate(root, at: 0)
            }
            return
        }
        try params.withUnsafeBufferPointer { (buffer) throws(SchemaViolation) in
            _ = try SchemaValidator(schema: schema, bytes: buffer).validate(root, at: 0)
            // After the rules, so a value the document refuses gets the document's reason.
            if let violation = UnstorableText.violation(in: buffer) { throw violation }
        }
    }

    /// The rules of a method whose params are all strings, for params read as an object of exactly `keys`:
    /// what the flat params readers check their values against without walking the bytes again. Nil when the method's
    /// rules are more than one string rule per member (a rule on the object, a member that is not in `keys`
    /// but required, a key it does not describe), so its calls get the full check.
    func plainStrings(method: String, keys: [String]) -> PlainStringRules? {
        guard let root = roots[method] else { return nil }
        let object = schema.nodes[root]
        guard object.kinds.contains(.object), object.propertyNames == nil, object.allOf.isEmpty,
            object.anyOf.isEmpty, object.oneOf.isEmpty,
            object.required.allSatisfy({ keys.contains(object.properties[$0].name) })
        else { return nil }
        var nodes: [Int] = []
        for key in keys {
            guard let property = object.properties.first(where: { $0.name == key }) else { return nil }
            nodes.append(property.node)
        }
        return PlainStringRules(contract: self, nodes: nodes)
    }

    /// Whether the string `value` satisfies node `index` and every `allOf` branch below it (a named schema is
    /// a node whose one branch is the schema); false also for `anyOf`/`oneOf`, left to the full check.
    fileprivate func admits(string value: String, node index: Int) -> Bool {
        let rule = schema.nodes[index]
        guard rule.kinds.contains(.string), rule.anyOf.isEmpty, rule.oneOf.isEmpty else { return false }
        // A scalar is one to four UTF-8 bytes: the byte count (O(1)) settles most length rules; the scalars
        // are counted (a walk of the string) only when it leaves the answer open.
        let bytes = value.utf8.count
        if (rule.minLength.map { (bytes + 3) / 4 < $0 } ?? false) || (rule.maxLength.map { bytes > $0 } ?? false) {
            let scalars = value.unicodeScalars.count
            if let minimum = rule.minLength, scalars < minimum { return false }
            if let maximum = rule.maxLength, scalars > maximum { return false }
        }
        if rule.readsText {
            var text = value
            let matches = text.withUTF8 { utf8 in
                (rule.enumValues.map { $0.contains { $0.elementsEqual(utf8) } } ?? true)
                    && (rule.pattern?.matches(utf8) ?? true)
            }
            if !matches { return false }
        }
        return rule.allOf.allSatisfy { admits(string: value, node: $0) }
    }

    private static let empty: [UInt8] = Array("{}".utf8)
}

/// The rules of a method's string params, in the order of the keys asked for (`ParamsContract.plainStrings`).
struct PlainStringRules: Sendable {
    let contract: ParamsContract
    let nodes: [Int]

    /// Whether the values (one per key, in order) satisfy the rules; false sends the call to the full check,
    /// which names the field and the rule.
    func admit(_ values: [String]) -> Bool {
        values.count == nodes.count && zip(values, nodes).allSatisfy { contract.admits(string: $0, node: $1) }
    }
}
