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

/// Reflection sees the filter's fields and the paging fields (`FlatCodable.customMirror`).
extension ListRequest: CustomReflectable {}
