/// What middleware and responders learn about one request beyond its HTTP: the caller's deadline, its bearer
/// token, what it called for the log line. Each concern declares its own typed key
/// (`RequestContextKey`) and accessor where it is implemented, so a new one does not edit `HTTPRequest`.
///
/// A key read but never written gives its `defaultValue`. The values are kept in a short list scanned
/// linearly (a request carries a handful at most), and the first `inlineCapacity` of them live in the
/// request object itself: storing a value of up to three words (a `String?`, an array, an instant)
/// allocates nothing, so neither a GET that stores none nor a `POST /rpc` that stores its methods, token
/// and deadline pays an allocation for its context.
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

    /// How many values are kept inline (`keys`' and `values`' size); those stored after them go to an array.
    static var inlineCapacity: Int { 4 }

    // Keys apart from values: a lookup scans plain words and copies only the value it returns.

    /// The keys of the inline values, filled in order: the first nil ends the list.
    @usableFromInline var keys: InlineArray<4, ObjectIdentifier?>
    /// The value stored under `keys[i]`.
    @usableFromInline var values: InlineArray<4, (any Sendable)?>
    /// Values past the inline ones (none so far: three keys exist).
    @usableFromInline var overflow: [Entry]

    @inlinable
    public init() {
        keys = InlineArray(repeating: nil)
        values = InlineArray(repeating: nil)
        overflow = []
    }

    /// The value stored under `key`, or the key's default.
    ///
    /// `@inlinable`, so a key declared in another module is read and written through a specialized copy:
    /// unspecialized, each access would look up the key's metadata and witnesses at run time.
    @inlinable
    public subscript<Key: RequestContextKey>(key: Key.Type) -> Key.Value {
        get {
            let id = ObjectIdentifier(key)
            for index in keys.indices {
                guard let stored = keys[index] else { return Key.defaultValue }
                // Only the setter below stores under `id`, always a `Key.Value`.
                if stored == id { return values[index]! as! Key.Value }
            }
            for entry in overflow where entry.key == id { return entry.value as! Key.Value }
            return Key.defaultValue
        }
        set {
            let id = ObjectIdentifier(key)
            for index in keys.indices {
                guard let stored = keys[index] else {
                    keys[index] = id
                    values[index] = newValue
                    return
                }
                if stored == id {
                    values[index] = newValue
                    return
                }
            }
            if let index = overflow.firstIndex(where: { $0.key == id }) {
                overflow[index].value = newValue
            } else {
                overflow.append(Entry(key: id, value: newValue))
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
/// Make the accessor's getter `@inlinable` (and the key `@usableFromInline`): called from another module, a
/// getter that is not inlined first copies the whole context out of the request.
///
/// Keep `Value` within three words (a `String?`, an array, a class reference, an instant) and it is stored
/// without an allocation; a larger one is boxed by the existential it is kept in.
public protocol RequestContextKey {
    associatedtype Value: Sendable
    /// What a request that never stored a value reads.
    static var defaultValue: Value { get }
}
