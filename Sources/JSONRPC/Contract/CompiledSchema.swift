/// The JSON Schemas of the OpenRPC document, compiled once into a flat table of nodes that the validator
/// walks over raw request bytes.
///
/// Every keyword the compiler meets is either enforced or known to be an annotation; any other keyword
/// fails the compilation, so a constraint added to the document cannot be silently ignored by the server.
struct CompiledSchema: Sendable {
    /// JSON value kinds as bits, to test `type` in one AND.
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt8
        static let null = Kinds(rawValue: 1)
        static let boolean = Kinds(rawValue: 2)
        static let object = Kinds(rawValue: 4)
        static let array = Kinds(rawValue: 8)
        static let number = Kinds(rawValue: 16)
        static let integer = Kinds(rawValue: 32)
        static let string = Kinds(rawValue: 64)
        static let all = Kinds(rawValue: 127)

        /// How an error names the kinds, in JSON's words: "a string or null".
        var phrase: String {
            var words: [String] = []
            if contains(.string) { words.append("a string") }
            if contains(.number) { words.append("a number") } else if contains(.integer) { words.append("an integer") }
            if contains(.boolean) { words.append("a boolean") }
            if contains(.object) { words.append("an object") }
            if contains(.array) { words.append("an array") }
            if contains(.null) { words.append("null") }
            if words.count <= 1 { return words.first ?? "nothing" }
            return words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
    }

    struct Property: Sendable {
        let key: [UInt8]
        let name: String
        let node: Int
    }

    /// One schema. Index references point into `CompiledSchema.nodes`.
    struct Node: Sendable {
        /// The component name (`Version`) when the node is `#/components/schemas/Version`, for messages.
        var title: String?
        var kinds: Kinds = .all
        var enumValues: [[UInt8]]?
        var minLength: Int?
        var maxLength: Int?
        var pattern: SchemaPattern?
        /// The schema's own short description, said after a pattern it fails (the API's words for the rule).
        var hint: String?
        var minimum: Double?
        var maximum: Double?
        var items: Int?
        var minItems: Int?
        var maxItems: Int?
        var uniqueItems = false
        var properties: [Property] = []
        /// Indices into `properties` of the required members.
        var required: [Int] = []
        /// nil: any other member is allowed; `.some(nil)`: none is; `.some(n)`: each must match node n.
        var additionalProperties: Int?? = nil
        var propertyNames: Int?
        var allOf: [Int] = []
        var anyOf: [Int] = []
        var oneOf: [Int] = []
    }

    /// Why the document could not be compiled (a defect of the document or of this compiler).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A node as the validator reads it: a class, so reading one costs a single retain on the hot path
    /// (copying the `Node` struct would retain each of its arrays). The keywords are read through to the
    /// node (`rule.minLength`), so they are declared once, in `Node`.
    @dynamicMemberLookup
    final class Rule: Sendable {
        private let node: Node
        /// Whether a string's decoded text is needed (to compare or match it), not only its length.
        let readsText: Bool

        init(_ node: Node) {
            self.node = node
            readsText = node.enumValues != nil || node.pattern != nil
        }

        @inline(__always)
        subscript<Keyword>(dynamicMember keyword: KeyPath<Node, Keyword>) -> Keyword { node[keyPath: keyword] }
    }

    /// The nodes; schemas refer to each other by index.
    let nodes: [Rule]
}

/// Builds a `CompiledSchema` from the document's schemas as `JSONSerialization` reads them.
struct SchemaCompiler {
    typealias Node = CompiledSchema.Node
    typealias Kinds = CompiledSchema.Kinds
    typealias Property = CompiledSchema.Property
    typealias Failure = CompiledSchema.Failure

    private(set) var nodes: [Node] = []
    private var named: [String: Int] = [:]
    private let components: [String: Any]
    /// What a `$ref` to a named schema starts with: OpenRPC keeps them under `components`, a standalone JSON
    /// Schema under `$defs`.
    private let referencePrefix: String

    /// The nodes compiled so far.
    var result: CompiledSchema { CompiledSchema(nodes: nodes.map(CompiledSchema.Rule.init)) }

    /// Keywords that describe without constraining.
    private static let annotations: Set<String> = [
        "description", "title", "format", "examples", "example", "default", "deprecated", "readOnly", "writeOnly",
        "$comment",
    ]

    init(components: [String: Any], referencePrefix: String = "#/components/schemas/") {
        self.components = components
        self.referencePrefix = referencePrefix
    }

    /// Compiles `schema` (as `JSONSerialization` reads it) and returns its node index.
    mutating func compile(_ schema: Any, at location: String) throws(Failure) -> Int {
        if let flag = schema as? Bool {
            var node = Node()
            if !flag { node.kinds = [] }
            return append(node)
        }
        guard let schema = schema as? [String: Any] else { throw Failure(description: "\(location) is not a schema") }
        if let reference = schema["$ref"] {
            guard let reference = reference as? String else {
                throw Failure(description: "\(location): $ref must be a string")
            }
            let target = try resolve(reference, at: location)
            var rest = schema
            rest["$ref"] = nil
            guard rest.keys.contains(where: { !Self.annotations.contains($0) }) else { return target }
            let siblings = try compile(rest, at: location)
            var both = Node()
            both.allOf = [target, siblings]
            return append(both)
        }
        let index = append(Node())
        var node = Node()
        for (keyword, value) in schema {
            let here = "\(location)/\(keyword)"
            switch keyword {
            case _ where Self.annotations.contains(keyword): continue
            case "type": node.kinds = try Self.kinds(value, at: here)
            case "enum", "const":
                let values = keyword == "const" ? [value] : value as? [Any]
                guard let strings = values?.compactMap({ $0 as? String }), strings.count == values?.count else {
                    throw Failure(description: "\(here): only string values are supported")
                }
                node.enumValues = strings.map { Array($0.utf8) }
            case "minLength": node.minLength = try Self.count(value, at: here)
            case "maxLength": node.maxLength = try Self.count(value, at: here)
            case "pattern":
                guard let text = value as? String else { throw Failure(description: "\(here) is not a string") }
                do { node.pattern = try SchemaPattern(text) } catch { throw Failure(description: "\(here): \(error)") }
            case "minimum", "maximum":
                guard let number = value as? Double else { throw Failure(description: "\(here) is not a number") }
                if keyword == "minimum" { node.minimum = number } else { node.maximum = number }
            case "items": node.items = try compile(value, at: here)
            case "minItems": node.minItems = try Self.count(value, at: here)
            case "maxItems": node.maxItems = try Self.count(value, at: here)
            case "uniqueItems": node.uniqueItems = value as? Bool ?? false
            case "properties":
                guard let members = value as? [String: Any] else {
                    throw Failure(description: "\(here) is not an object")
                }
                for name in members.keys.sorted() {
                    let child = try compile(members[name]!, at: "\(here)/\(name)")
                    node.properties.append(Property(key: Array(name.utf8), name: name, node: child))
                }
            case "required": continue  // after the properties, below
            case "additionalProperties":
                if let allowed = value as? Bool {
                    node.additionalProperties = allowed ? nil : .some(nil)
                } else {
                    node.additionalProperties = .some(try compile(value, at: here))
                }
            case "propertyNames": node.propertyNames = try compile(value, at: here)
            case "allOf", "anyOf", "oneOf":
                guard let branches = value as? [Any] else { throw Failure(description: "\(here) is not an array") }
                var compiled: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    compiled.append(try compile(branch, at: "\(here)/\(offset)"))
                }
                if keyword == "allOf" {
                    node.allOf = compiled
                } else if keyword == "anyOf" {
                    node.anyOf = compiled
                } else {
                    node.oneOf = compiled
                }
            default:
                throw Failure(description: "\(here): the server does not enforce \(keyword); teach CompiledSchema")
            }
        }
        if let required = schema["required"] {
            guard let names = required as? [String] else { throw Failure(description: "\(location)/required") }
            for name in names {
                if let slot = node.properties.firstIndex(where: { $0.name == name }) {
                    node.required.append(slot)
                } else {
                    node.properties.append(Property(key: Array(name.utf8), name: name, node: append(Node())))
                    node.required.append(node.properties.count - 1)
                }
            }
        }
        if node.pattern != nil, let description = schema["description"] as? String, description.count <= 160 {
            node.hint = description
        }
        guard node.properties.count <= 64 else { throw Failure(description: "\(location): over 64 properties") }
        nodes[index] = node
        return index
    }

    /// A params object: each param a property, `required` as the params say, nothing else allowed.
    mutating func compileParams(_ params: [[String: Any]], method: String) throws(Failure) -> Int {
        var node = Node()
        for param in params {
            guard let name = param["name"] as? String, let schema = param["schema"] else {
                throw Failure(description: "\(method): a param without a name or schema")
            }
            let child = try compile(schema, at: "\(method)/params/\(name)")
            node.properties.append(Property(key: Array(name.utf8), name: name, node: child))
            if param["required"] as? Bool == true { node.required.append(node.properties.count - 1) }
        }
        node.kinds = .object
        node.additionalProperties = .some(nil)
        return append(node)
    }

    private mutating func resolve(_ reference: String, at location: String) throws(Failure) -> Int {
        let prefix = referencePrefix
        guard reference.hasPrefix(prefix) else { throw Failure(description: "\(location): unsupported $ref") }
        let name = String(reference.dropFirst(prefix.count))
        if let known = named[name] { return known }
        guard let schema = components[name] else { throw Failure(description: "\(location): no schema \(name)") }
        // Registered before compiling, so a schema that refers to itself ends the recursion.
        let placeholder = append(Node())
        named[name] = placeholder
        let compiled = try compile(schema, at: reference)
        var node = Node()
        node.allOf = [compiled]
        node.title = name
        nodes[placeholder] = node
        return placeholder
    }

    private mutating func append(_ node: Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    private static func kinds(_ value: Any, at location: String) throws(Failure) -> Kinds {
        let names = (value as? [String]) ?? (value as? String).map { [$0] }
        guard let names else { throw Failure(description: "\(location) is not a type name or a list of them") }
        var kinds: Kinds = []
        for name in names {
            switch name {
            case "null": kinds.insert(.null)
            case "boolean": kinds.insert(.boolean)
            case "object": kinds.insert(.object)
            case "array": kinds.insert(.array)
            case "number": kinds.formUnion([.number, .integer])
            case "integer": kinds.insert(.integer)
            case "string": kinds.insert(.string)
            default: throw Failure(description: "\(location): unknown type \(name)")
            }
        }
        return kinds
    }

    private static func count(_ value: Any, at location: String) throws(Failure) -> Int {
        guard let number = value as? Int, number >= 0 else {
            throw Failure(description: "\(location) is not a non-negative integer")
        }
        return number
    }
}
