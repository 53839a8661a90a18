import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Revision repository")
struct RevisionRepositoryTests {
    let fixture: StoreTestDatabase
    let revisions = RevisionRepository()

    init() throws { fixture = try StoreTestDatabase(suite: "revisions") }

    private func append(_ host: String, _ text: String, kind: DocumentKind = .aasa, in tx: Transaction) throws
        -> StoredRevision
    {
        try revisions.append(
            host: host, kind: kind, bytes: Data(text.utf8), etag: "\"\(text)\"", cause: "publish ios \(text)",
            liveVersions: SQLJSON(json: Data(#"{"badoo":{"ios":["5.11.0"]}}"#.utf8)), in: tx)
    }

    @Test func numbersCountPerHostAndKind() throws {
        let appended = try fixture.tx { tx in
            [
                try append("badoo.com", "a", in: tx), try append("badoo.com", "b", in: tx),
                try append("m.badoo.com", "c", in: tx), try append("badoo.com", "d", kind: .assetlinks, in: tx),
                try append("badoo.com", "e", in: tx),
            ]
        }
        #expect(appended.map(\.number) == [1, 2, 1, 1, 3])
        let latest = try #require(try fixture.tx { try revisions.latest(host: "badoo.com", kind: .aasa, in: $0) })
        #expect(latest == appended[4])
        #expect(latest.bytes == Data("e".utf8) && latest.cause == "publish ios e")
        let liveVersions = try JSONDecoder().decode([String: [String: [String]]].self, from: latest.liveVersions)
        #expect(liveVersions == ["badoo": ["ios": ["5.11.0"]]])
        #expect(try fixture.tx { try revisions.get(host: "badoo.com", kind: .aasa, number: 2, in: $0) } == appended[1])
        #expect(try fixture.tx { try revisions.get(host: "badoo.com", kind: .aasa, number: 9, in: $0) } == nil)
        #expect(try fixture.tx { try revisions.latest(host: "nowhere.com", kind: .aasa, in: $0) } == nil)
        let heads = try fixture.tx { try revisions.heads(hosts: ["badoo.com", "m.badoo.com", "nowhere.com"], in: $0) }
        #expect(
            heads == [
                DocumentKey(host: "badoo.com", kind: .aasa): RevisionHead(number: 3, etag: "\"e\""),
                DocumentKey(host: "badoo.com", kind: .assetlinks): RevisionHead(number: 1, etag: "\"d\""),
                DocumentKey(host: "m.badoo.com", kind: .aasa): RevisionHead(number: 1, etag: "\"c\""),
            ])
        #expect(try fixture.tx { try revisions.heads(hosts: [], in: $0) }.isEmpty)
    }

    @Test func listIsNewestFirstAndPaged() throws {
        try fixture.tx { tx in for index in 1...5 { _ = try append("badoo.com", "r\(index)", in: tx) } }
        let first = try fixture.tx {
            try revisions.list(host: "badoo.com", kind: .aasa, PageRequest(pageSize: 3), in: $0)
        }
        #expect(first.items.map(\.number) == [5, 4, 3])
        let second = try fixture.tx {
            try revisions.list(
                host: "badoo.com", kind: .aasa, PageRequest(pageSize: 3, pageToken: first.nextPageToken), in: $0)
        }
        #expect(second.items.map(\.number) == [2, 1] && second.nextPageToken == nil)
    }

    @Test func revisionsAreImmutable() throws {
        try fixture.tx { _ = try append("badoo.com", "a", in: $0) }
        for statement: SQLQuery in [
            "UPDATE revisions SET cause = \("rewritten")", "DELETE FROM revisions", "TRUNCATE revisions",
        ] {
            let error = try #require(throws: StoreError.self) { try fixture.tx { try $0.query(statement) } }
            #expect(error.sqlState == .objectNotInPrerequisiteState)
        }
        #expect(
            try fixture.tx { try revisions.latest(host: "badoo.com", kind: .aasa, in: $0) }?.cause == "publish ios a")
    }

    @Test func aDuplicateNumberIsRefusedByTheSchema() throws {
        try fixture.tx { _ = try append("badoo.com", "a", in: $0) }
        let error = try #require(throws: StoreError.self) {
            try fixture.tx { tx in
                try tx.query(
                    """
                    INSERT INTO revisions (host, kind, number, bytes, etag, cause)
                    VALUES (\("badoo.com"), \("aasa"), \(1), \(Data())::bytea, \("e"), \("c"))
                    """)
            }
        }
        #expect(error.sqlState == .uniqueViolation)
    }
}
