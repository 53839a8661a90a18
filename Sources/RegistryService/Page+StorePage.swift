import RouteCore
import RouteStore

extension API.Page {
    /// The API's page for one page of the store: each row converted to its API item, and the store's nil
    /// "no next page" spelled as the API's empty token.
    init<Row>(_ page: RouteStore.Page<Row>, _ item: (Row) throws -> Item) rethrows {
        self.init(items: try page.items.map(item), nextPageToken: page.nextPageToken ?? "")
    }
}
