/// What middleware and responders learn about one request beyond its HTTP: the caller's deadline, its bearer
/// token, what it called for the log line. Each concern declares its own typed key
/// (`RequestContextKey`) and accessor where it is implemented, so a new one does not edit `HTTPRequest`.
///
/// A key read but never written gives its `defaultValue`. The values are kept in a short list scanned
/// linearly: a request carries a handful at most, and a request that stores none (every GET of the
/// well-known files, every short link) allocates nothing.
///
/// Lives in `HTTPRequest.context`, so it shares the request's threading: touched on the thread that runs the
/// request's middleware and responder, one at a time.
public struct RequestContext: Sendable {
    private struct Entry: Sendable {
        let key: ObjectIdentifier
        var value: any Sendable
    }

    private var entries: [Entry] = []

    public init() {}

    /// The value stored under `key`, or the key's default.
    public subscript<Key: RequestContextKey>(key: Key.Type) -> Key.Value {
        get {
            let id = ObjectIdentifier(key)
            for entry in entries where entry.key == id {
                // Only the setter below stores under `id`, always a `Key.Value`.
                return entry.value as! Key.Value
            }
            return Key.defaultValue
        }
        set {
            let id = ObjectIdentifier(key)
            if let index = entries.firstIndex(where: { $0.key == id }) {
                entries[index].value = newValue
            } else {
                entries.append(Entry(key: id, value: newValue))
            }
        }
    }
}

/// A typed slot of `RequestContext`: declare a type per concern, and an accessor on `RequestContext`
/// beside the middleware that fills it.
///
/// ```swift
/// enum TenantKey: RequestContextKey { static var defaultValue: String? { nil } }
/// extension RequestContext {
///     var tenant: String? { get { self[TenantKey.self] } set { self[TenantKey.self] = newValue } }
/// }
/// ```
public protocol RequestContextKey {
    associatedtype Value: Sendable
    /// What a request that never stored a value reads.
    static var defaultValue: Value { get }
}
