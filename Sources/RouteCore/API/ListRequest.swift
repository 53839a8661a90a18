/// The params of a list method that narrows its list: the method's own filter fields and the paging
/// fields, side by side in one flat params object (`{"app": …, "pageSize": …, "pageToken": …}`), so
/// paging is declared once (`PageRequest`) and each list method declares only its filter.
///
/// Filter fields read through (`input.app`); `page` is what the store pages with.
@dynamicMemberLookup
public struct ListRequest<Filter: Codable & Sendable>: FlatCodable, Sendable {
    public var filter: Filter
    public var page: PageRequest

    public init(_ filter: Filter, _ page: PageRequest = PageRequest()) {
        self.filter = filter
        self.page = page
    }

    public subscript<Value>(dynamicMember field: KeyPath<Filter, Value>) -> Value { filter[keyPath: field] }

    /// The filter first: its fields are read (and refused) before the paging fields, in wire order.
    public var halves: (Filter, PageRequest) { (filter, page) }
    public init(halves: (Filter, PageRequest)) { self.init(halves.0, halves.1) }
}

extension ListRequest: CustomReflectable {
    /// The params it holds, flat as on the wire: reflection (the dispatch table's check of which params a
    /// handler takes) sees the filter's fields and the paging fields, not the two halves.
    public var customMirror: Mirror {
        Mirror(self, children: Array(Mirror(reflecting: filter).children) + Array(Mirror(reflecting: page).children))
    }
}
