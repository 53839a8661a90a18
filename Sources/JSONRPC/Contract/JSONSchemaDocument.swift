import Foundation

/// A standalone JSON Schema document (2020-12, named schemas under `$defs`), compiled by the same compiler
/// and checked by the same validator as the OpenRPC params, so a file such as
/// `Schema/routereg-manifest.schema.json` is held to the rules the server enforces, keyword for keyword.
///
/// A keyword the compiler does not know fails `init`, as it does for the OpenRPC document: a schema is never
/// partly ignored.
public struct JSONSchemaDocument: Sendable {
    private let schema: CompiledSchema
    private let root: Int
    private let definitions: [String: Int]

    /// Compiles `document` (the schema's JSON text).
    public init(_ document: [UInt8]) throws {
        guard var top = try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any] else {
            throw CompiledSchema.Failure(description: "not a JSON Schema object")
        }
        let defs = top["$defs"] as? [String: Any] ?? [:]
        // The document's own identity and dialect, and the table of named schemas, are not constraints.
        for keyword in ["$defs", "$schema", "$id"] { top[keyword] = nil }
        var compiler = SchemaCompiler(components: defs, referencePrefix: "#/$defs/")
        root = try compiler.compile(top, at: "#")
        var definitions: [String: Int] = [:]
        for name in defs.keys.sorted() {
            definitions[name] = try compiler.compile(["$ref": "#/$defs/\(name)"], at: "#/$defs/\(name)")
        }
        self.definitions = definitions
        schema = compiler.result
    }

    /// The named schemas (`$defs`) it holds.
    public var definitionNames: [String] { definitions.keys.sorted() }

    /// The first rule `json` breaks, as `field: rule` (`routes[3]: sinse is not allowed`), checked against the
    /// whole document or, given `definition`, one of its `$defs`; nil when it is valid. Text that is not JSON
    /// is reported as such.
    public func violation(in json: [UInt8], definition: String? = nil) -> String? {
        guard (try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) != nil else {
            return "not JSON"
        }
        guard let start = json.firstIndex(where: { !Self.space.contains($0) }) else { return "empty" }
        let node: Int
        if let definition {
            guard let named = definitions[definition] else { return "no schema \(definition)" }
            node = named
        } else {
            node = root
        }
        do {
            try json.withUnsafeBufferPointer { (buffer) throws(SchemaViolation) in
                _ = try SchemaValidator(schema: schema, bytes: buffer).validate(node, at: start)
            }
            return nil
        } catch {
            return error.field.isEmpty ? error.rule : "\(error.field): \(error.rule)"
        }
    }

    private static let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
}
