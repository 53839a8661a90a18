import Foundation
import RouteCore

/// A model value as stored, with the metadata the API exposes: the `etag` for optimistic concurrency
/// (send it back with an update; a stale one fails ABORTED) and the row's timestamps.
public struct Stored<Value: Sendable>: Sendable {
    public var value: Value
    /// Opaque; changes on every update of the row.
    public var etag: String
    public var createTime: Date
    public var updateTime: Date

    public init(value: Value, etag: String, createTime: Date, updateTime: Date) {
        self.value = value
        self.etag = etag
        self.createTime = createTime
        self.updateTime = updateTime
    }
}

extension Stored: Equatable where Value: Equatable {}
extension Stored: Hashable where Value: Hashable {}

extension PageRequest {
    /// The page size actually used: `pageSize`, or `PageRequest.defaultSize` when absent. Its range
    /// (1...1000) is the OpenRPC schema's `PageSize`, checked once before any handler runs.
    public var limit: Int { pageSize ?? PageRequest.defaultSize }
}

/// One page of a list and the token for the next one (nil on the last page).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextPageToken: String?

    public init(items: [Item], nextPageToken: String?) {
        self.items = items
        self.nextPageToken = nextPageToken
    }
}

extension Page: Equatable where Item: Equatable {}

/// Opaque page tokens: URL-safe base64 of the JSON of the last key returned, so clients cannot depend on
/// their shape. A token that does not decode is INVALID_ARGUMENT.
enum PageToken {
    static func make<Key: Encodable>(_ key: Key) -> String {
        let json = (try? JSONEncoder().encode(key)) ?? Data()
        return json.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func read<Key: Decodable>(_ token: String?, as type: Key.Type) throws -> Key? {
        guard let token, !token.isEmpty else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let json = Data(base64Encoded: base64), let key = try? JSONDecoder().decode(Key.self, from: json) else {
            throw StoreError(.badPageToken)
        }
        return key
    }

    /// Splits `limit + 1` fetched rows into a page: the extra row only says that there is a next page.
    static func page<Item, Key: Encodable>(
        _ rows: [Item], limit: Int, key: (Item) -> Key
    ) -> Page<Item> {
        guard rows.count > limit else { return Page(items: rows, nextPageToken: nil) }
        let items = Array(rows.prefix(limit))
        return Page(items: items, nextPageToken: make(key(items[items.count - 1])))
    }
}

/// Etags are row version counters; anything that is not one never matches.
enum ETag {
    static func parse(_ etag: String?) -> Int64? {
        guard let etag else { return nil }
        return Int64(etag) ?? -1
    }
}

extension SQLRow {
    /// `etag`, `created_at`, `updated_at` around `value`.
    func stored<Value>(_ value: Value) throws -> Stored<Value> {
        Stored(
            value: value, etag: try string("etag"), createTime: try date("created_at"),
            updateTime: try date("updated_at"))
    }

    /// A `version_text` column.
    func version(_ column: String) throws -> Version {
        do { return try Version(try string(column)) } catch {
            throw StoreError(.decodingFailed, detail: "column \(column): \(error)")
        }
    }

    func optionalVersion(_ column: String) throws -> Version? {
        try isNull(column) ? nil : try version(column)
    }

    /// A `jsonb` column decoded as `type`.
    func decode<T: Decodable>(_ type: T.Type, _ column: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: try json(column)) } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.decodingFailed, detail: "column \(column): \(error)")
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ column: String) throws -> T? {
        try isNull(column) ? nil : try decode(type, column)
    }
}

extension Version {
    /// The stored key: the components padded to four, bound as `integer[]`.
    var key: [Int] { padded }
}

/// Rethrows a unique violation as ALREADY_EXISTS for `resource`, anything else as is.
@discardableResult
func mapUniqueViolation<T>(_ resource: @autoclosure () -> ResourceName, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as StoreError where error.sqlState == .uniqueViolation {
        throw StoreError(.alreadyExists, resource: resource())
    }
}
