import Foundation
import RouteMatching

extension RPCClient {
    /// The canOpen table of one app version (`CanOpen.GetTable`, public).
    ///
    /// Pass the ETag of the table you hold as `ifNoneMatch`: when it is still current the answer has
    /// `notModified == true` and no table, which keeps revalidation cheap.
    public func canOpenTable(
        app: String, platform: Platform, version: Version, ifNoneMatch: String? = nil
    ) async throws -> CanOpenTableAnswer {
        try await call(
            ReadMethods.CanOpenGetTable.self,
            .init(app: app, platform: platform, version: version, ifNoneMatch: ifNoneMatch))
    }

    /// The server's decision for one URL (`CanOpen.Check`, public). Apps decide locally with
    /// `CanOpenStore`; this is for tools, tests and servers that do not keep a table.
    public func check(app: String, platform: Platform, version: Version, url: String) async throws -> Decision {
        try await call(
            ReadMethods.CanOpenCheck.self, .init(app: app, platform: platform, version: version, url: url))
    }
}
