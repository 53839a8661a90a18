/// Names the member that holds a list method's items on the wire (`apps`, `routes`, `entries`, …): the
/// one thing in which the list results differ, so each list method states it and shares `API.Page`.
public protocol PageKey {
    /// The JSON name of the item array.
    static var items: String { get }
}

extension API {
    /// One page of a list method's result: its items, under the method's own member name (`Key.items`),
    /// and the token of the next page ("" on the last page).
    public struct Page<Key: PageKey, Item: Codable & Sendable>: Codable, Sendable {
        public var items: [Item]
        /// Pass it back as `pageToken` for the next page; empty when this page is the last.
        public var nextPageToken: String

        public init(items: [Item], nextPageToken: String) {
            self.items = items
            self.nextPageToken = nextPageToken
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Member.self)
            items = try container.decode([Item].self, forKey: Member(Key.items))
            nextPageToken = try container.decode(String.self, forKey: Member("nextPageToken"))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Member.self)
            try container.encode(items, forKey: Member(Key.items))
            try container.encode(nextPageToken, forKey: Member("nextPageToken"))
        }

        /// A member name chosen at run time: the item array's name comes from `Key`.
        private struct Member: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.init(stringValue) }
            init?(intValue: Int) { nil }
        }
    }
}
