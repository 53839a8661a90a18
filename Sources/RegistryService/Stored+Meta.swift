import RouteCore
import RouteStore

extension Stored {
    /// The API metadata of this row under `name`: its etag and timestamps as the API writes them. One place,
    /// so every resource kind reports them alike.
    func meta(named name: ResourceName) -> ResourceMeta {
        ResourceMeta(
            name: name.description, etag: etag, createTime: Timestamp.string(createTime),
            updateTime: Timestamp.string(updateTime))
    }
}
