import Foundation
import RouteCore

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

    /// The contract of the document shipped with the server (`OpenRPCDocument`).
    public static let registry: ParamsContract = {
        guard let bytes = OpenRPCDocument.bytes else { preconditionFailure("the OpenRPC document is not bundled") }
        do { return try ParamsContract(openRPC: bytes) } catch {
            preconditionFailure("the OpenRPC document cannot be enforced: \(error)")
        }
    }()

    /// The methods it describes.
    public var methodNames: [String] { roots.keys.sorted() }

    /// Checks a call's params (absent params count as `{}`); a violation names the field and the rule.
    /// Methods the document does not describe are not checked here.
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
        }
    }

    private static let empty: [UInt8] = Array("{}".utf8)
}

/// The params broke the document's rules (answered -32602, INVALID_ARGUMENT, with the field).
struct ContractViolation: Error {
    let violation: SchemaViolation
}
