/// A value made of two Codable halves that share one flat JSON object instead of nesting: each half reads
/// and writes its own members of the same object. A resource is its model's fields beside its metadata
/// (`Resource`); a list method's params are its filter beside the paging fields (`ListRequest`).
public protocol FlatCodable: Codable {
    associatedtype First: Codable
    associatedtype Second: Codable
    /// The two halves, in the order they are read.
    var halves: (First, Second) { get }
    init(halves: (First, Second))
}

extension FlatCodable {
    public init(from decoder: any Decoder) throws {
        self.init(halves: (try First(from: decoder), try Second(from: decoder)))
    }

    public func encode(to encoder: any Encoder) throws {
        try halves.0.encode(to: encoder)
        try halves.1.encode(to: encoder)
    }
}

extension FlatCodable where Self: CustomReflectable {
    /// The members it holds, flat as on the wire: the first half's fields, then the second's, not the two
    /// halves: what reflection (the dispatch table's check of which params a handler takes) should see.
    public var customMirror: Mirror {
        let (first, second) = halves
        return Mirror(
            self, children: Array(Mirror(reflecting: first).children) + Array(Mirror(reflecting: second).children))
    }
}
