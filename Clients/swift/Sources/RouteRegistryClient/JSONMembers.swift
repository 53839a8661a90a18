import Foundation
import JSONBytes

/// The top-level members of a JSON object as byte ranges of the original text, so a JSON-RPC `result`
/// can be handed on byte for byte (the CLI's `--json` prints the server's JSON unchanged) and decoded
/// without parsing the whole response twice.
struct JSONMembers {
    /// Member name → the bytes of its value, exactly as sent.
    let values: [String: Data]

    /// Scans `bytes`, which must hold one JSON object; nil when they do not. Values are only delimited here
    /// (`JSONScanner.skipUncheckedObject`); the decoder that reads one later checks its syntax.
    init?(_ bytes: Data) {
        let bytes = [UInt8](bytes)
        var values: [String: Data] = [:]
        let complete = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, maxDepth: .max)
            let walked = scanner.skipUncheckedObject { name, value in
                guard let key = try? JSONDecoder().decode(String.self, from: Data(bytes[name])) else { return false }
                values[key] = Data(bytes[value])
                return true
            }
            scanner.skipWhitespace()
            return walked && scanner.atEnd
        }
        guard complete else { return nil }
        self.values = values
    }

    subscript(name: String) -> Data? { values[name] }

    /// True when the member is present and not `null`.
    func hasValue(_ name: String) -> Bool {
        guard let value = values[name] else { return false }
        return value != Data("null".utf8)
    }
}
