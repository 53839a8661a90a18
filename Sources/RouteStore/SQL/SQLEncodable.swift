import Foundation

/// A Swift value that can be bound to a query parameter, in PostgreSQL's text format.
///
/// The server infers each parameter's type from where it is used; add a cast in the SQL (`\(ids)::text[]`)
/// where the context is ambiguous.
public protocol SQLEncodable: Sendable {
    /// The value in PostgreSQL text format; nil binds SQL NULL.
    var sqlText: String? { get }
}

extension String: SQLEncodable {
    public var sqlText: String? { self }
}

extension Substring: SQLEncodable {
    public var sqlText: String? { String(self) }
}

extension Int: SQLEncodable {
    public var sqlText: String? { String(self) }
}

extension Int32: SQLEncodable {
    public var sqlText: String? { String(self) }
}

extension Int64: SQLEncodable {
    public var sqlText: String? { String(self) }
}

extension Bool: SQLEncodable {
    public var sqlText: String? { self ? "true" : "false" }
}

extension Data: SQLEncodable {
    /// `bytea` in hex form.
    public var sqlText: String? {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: 2 + count * 2)
        text[0] = UInt8(ascii: "\\")
        text[1] = UInt8(ascii: "x")
        for (index, byte) in enumerated() {
            text[2 + index * 2] = digits[Int(byte >> 4)]
            text[3 + index * 2] = digits[Int(byte & 0x0f)]
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Array: SQLEncodable where Element: SQLEncodable {
    /// A one-dimensional array literal with every element quoted (`{"a","b\"c"}`), NULL for nil elements.
    public var sqlText: String? {
        var text = "{"
        for (index, element) in enumerated() {
            if index > 0 { text += "," }
            guard let value = element.sqlText else {
                text += "NULL"
                continue
            }
            text += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}

/// A `jsonb` parameter: JSON text produced by the caller (e.g. `JSONEncoder`). Bind it with a cast,
/// `\(json)::jsonb`, so the server parses it as JSON rather than as a string.
public struct SQLJSON: SQLEncodable, Hashable {
    /// UTF-8 JSON text.
    public var json: Data

    public init(json: Data) { self.json = json }

    /// Encodes `value` with sorted keys, so equal values give equal text.
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        json = try encoder.encode(value)
    }

    public var sqlText: String? { String(decoding: json, as: UTF8.self) }
}
