import Foundation
import RegistryTesting
import RouteStore
import Testing

/// After a bulk import the planner's statistics of `links` lag until autovacuum's next look (a minute by
/// default), and single link writes were planned as for an empty table (24 ms at 100,000 links, 3 ms after an
/// ANALYZE). The server refreshes them itself each time the links it holds have more than doubled.
@Suite(.serialized) struct LinkTableStatisticsTests {
    typealias Serving = LinksServingTests

    /// When `links` was last analyzed by a command (not by autovacuum), and the rows the planner thinks it has.
    static func statistics(_ server: TestRegistryServer) throws -> (analyzed: Date?, rows: Int) {
        let row = try server.databasePool.withTransaction { tx in
            try tx.query(
                """
                SELECT s.last_analyze AS analyzed, c.reltuples::bigint AS rows
                FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 'links'
                """)[0]
        }
        return (try row.optionalDate("analyzed"), try row.int("rows"))
    }

    @Test func aBulkImportRefreshesTheLinksStatistics() async throws {
        let server = try TestRegistryServer(suite: "link_table_statistics")
        defer { server.shutdown() }
        try await Serving.seed(server)
        for batch in 0..<2 {
            let links = (0..<1_000).map { ["code": "s\(batch)-\($0)", "target": "https://m.badoo.com/l/a/\($0)"] }
            _ = try await server.result("Links.BatchCreate", ["app": "badoo", "links": links])
        }
        var seen = try Self.statistics(server)
        let end = Date().addingTimeInterval(20)
        while seen.analyzed == nil || seen.rows < 1_000, Date() < end {
            try await Task.sleep(for: .milliseconds(100))
            seen = try Self.statistics(server)
        }
        #expect(seen.analyzed != nil, "links was never analyzed by the server")
        #expect(seen.rows >= 1_000, "the planner still counts \(seen.rows) links")
    }
}
