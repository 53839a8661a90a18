import Foundation

/// The rows a statement returned, copied out of libpq (so its `PGresult` is freed at once), with values in
/// PostgreSQL text format.
public struct SQLRows: Sendable, RandomAccessCollection {
    /// Column names, in select-list order.
    public let columns: [String]
    /// Values per row; nil is SQL NULL.
    let values: [[String?]]
    /// Rows changed by an INSERT/UPDATE/DELETE (0 for other statements).
    public let affectedRows: Int

    init(columns: [String], values: [[String?]], affectedRows: Int) {
        self.columns = columns
        self.values = values
        self.affectedRows = affectedRows
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { values.count }

    public subscript(position: Int) -> SQLRow {
        SQLRow(columns: columns, values: values[position])
    }
}

/// One row of a result. Accessors throw a `StoreError` with code `.decodingFailed` when a column is missing
/// or holds something else than asked for: a schema and code mismatch, never the caller's fault.
public struct SQLRow: Sendable {
    let columns: [String]
    let values: [String?]

    private func raw(_ column: String) throws -> String? {
        guard let index = columns.firstIndex(of: column) else {
            throw StoreError(.decodingFailed, detail: "no column \(column)")
        }
        return values[index]
    }

    private func required(_ column: String) throws -> String {
        guard let value = try raw(column) else {
            throw StoreError(.decodingFailed, detail: "column \(column) is NULL")
        }
        return value
    }

    private func mismatch(_ column: String, _ type: String) -> StoreError {
        StoreError(.decodingFailed, detail: "column \(column) is not \(type)")
    }

    /// True when the column is SQL NULL.
    public func isNull(_ column: String) throws -> Bool { try raw(column) == nil }

    public func string(_ column: String) throws -> String { try required(column) }

    public func optionalString(_ column: String) throws -> String? { try raw(column) }

    public func int(_ column: String) throws -> Int {
        guard let value = Int(try required(column)) else { throw mismatch(column, "an integer") }
        return value
    }

    public func optionalInt(_ column: String) throws -> Int? {
        guard let text = try raw(column) else { return nil }
        guard let value = Int(text) else { throw mismatch(column, "an integer") }
        return value
    }

    public func bool(_ column: String) throws -> Bool {
        guard let value = try optionalBool(column) else { throw mismatch(column, "a boolean") }
        return value
    }

    public func optionalBool(_ column: String) throws -> Bool? {
        switch try raw(column) {
        case nil: return nil
        case "t": return true
        case "f": return false
        default: throw mismatch(column, "a boolean")
        }
    }

    /// A `bytea` column (hex output format, PostgreSQL's default). Decoded into a preallocated buffer:
    /// appending to `Data` byte by byte pays a call per byte, and a revision is a whole document.
    public func bytes(_ column: String) throws -> Data {
        var text = try required(column)
        let decoded: [UInt8]? = text.withUTF8 { utf8 in
            guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0
            else { return nil }
            var failed = false
            let result = [UInt8](unsafeUninitializedCapacity: (utf8.count - 2) / 2) { buffer, initialized in
                var input = 2
                var output = 0
                while input < utf8.count {
                    let high = Self.hexValue(utf8[input])
                    let low = Self.hexValue(utf8[input + 1])
                    if high > 15 || low > 15 {
                        failed = true
                        break
                    }
                    buffer[output] = high << 4 | low
                    input += 2
                    output += 1
                }
                initialized = output
            }
            return failed ? nil : result
        }
        guard let decoded else { throw mismatch(column, "bytea in hex format") }
        return Data(decoded)
    }

    /// A `json`/`jsonb` column's text as UTF-8 bytes.
    public func json(_ column: String) throws -> Data { Data(try required(column).utf8) }

    public func optionalJSON(_ column: String) throws -> Data? { try raw(column).map { Data($0.utf8) } }

    /// A one-dimensional `text[]` column; NULL elements are refused.
    public func strings(_ column: String) throws -> [String] {
        guard let value = try optionalStrings(column) else { throw mismatch(column, "an array") }
        return value
    }

    public func optionalStrings(_ column: String) throws -> [String]? {
        guard let text = try raw(column) else { return nil }
        guard let elements = SQLArrayParser.parse(text), !elements.contains(where: { $0 == nil }) else {
            throw mismatch(column, "a one-dimensional array without NULLs")
        }
        return elements.map { $0! }
    }

    /// A `timestamptz` column. Connections run with `DateStyle=ISO` and `TimeZone=UTC`.
    public func date(_ column: String) throws -> Date {
        guard let value = try optionalDate(column) else { throw mismatch(column, "a timestamp") }
        return value
    }

    public func optionalDate(_ column: String) throws -> Date? {
        guard let text = try raw(column) else { return nil }
        guard let date = SQLTimestamp.parse(text) else { throw mismatch(column, "an ISO timestamp in UTC") }
        return date
    }

    /// The value of a hex digit, or 255 for anything else.
    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return 255
        }
    }
}
