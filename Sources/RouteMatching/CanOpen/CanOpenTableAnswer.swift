/// The result of `CanOpen.GetTable` and of the cacheable table GET: the table of one app version, or
/// `notModified` (and no table) when the ETag sent as `ifNoneMatch` is still current. One type for the
/// server's descriptor and the Swift client, which receives tables without linking the descriptors.
public struct CanOpenTableAnswer: Codable, Sendable, Hashable {
    /// The ETag of the current table.
    public var etag: String
    /// True when the table the caller holds is current; `table` is then nil.
    public var notModified: Bool
    /// The table, unless `notModified`.
    public var table: CanOpenTable?

    public init(etag: String, notModified: Bool, table: CanOpenTable?) {
        self.etag = etag
        self.notModified = notModified
        self.table = table
    }
}
