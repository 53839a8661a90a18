/// What middleware and responders learn about one request beyond its HTTP: the caller's deadline, its bearer
/// token, what it called for the log line. Each concern declares its own typed key
/// (`RequestContextKey`) and accessor where it is implemented, so a new one does not edit `HTTPRequest`.
///
/// A key read but never written gives its `defaultValue`. The values are kept in a short array scanned
/// linearly (a request carries a handful at most). A request that stores nothing (every GET of the
/// well-known files, every short link) allocates nothing; one that stores something allocates the array
/// once. Measured with callgrind against values kept inline in the request (an `InlineArray` of
/// existentials, copied and destroyed through value witnesses), this costs less on the GETs and on a Check
/// alike.
///
/// Lives in `HTTPRequest.context`, so it shares the request's threading: touched on the thread that runs the
/// request's middleware and responder, one at a time.
public struct RequestContext: Sendable {
    /// One stored value and the key it was stored under.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let key: ObjectIdentifier
        @usableFromInline var value: any Sendable

        @inlinable
        init(key: ObjectIdentifier, value: any Sendable) {
            self.key = key
            self.value = value
        }
    }

    /// The values stored, in the order first stored. An empty array is the shared empty storage: a request
    /// that stores nothing allocates nothing, and copying a context retains one reference.
    @usableFromInline var entries: [Entry]

    @inlinable
    public init() { entries = [] }

    /// The value stored under `key`, or the key's default.
    ///
    /// `@inlinable`, so a key declared in another module is read and written through a specialized copy:
    /// unspecialized, each access would look up the key's metadata and witnesses at run time.
    @inlinable
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
///
/// Make the accessor's getter `@inlinable` (and the key `@usableFromInline`), so a caller in another module
/// reads the value in place instead of calling an opaque getter on a copy of the context.
///
/// Keep `Value` within three words (a `String?`, an array, a class reference, an instant) and it is stored
/// in the existential's own buffer; a larger one costs a box of its own.
public protocol RequestContextKey {
    associatedtype Value: Sendable
    /// What a request that never stored a value reads.
    static var defaultValue: Value { get }
}
