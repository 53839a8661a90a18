import Foundation
import RegistryTesting
import RouteCore
import RouteStore
import Testing

@testable import RegistryService

/// The one mapping from store failures to what clients see (`StoreError+RegistryError.swift`): every code and
/// SQLSTATE the store reports, word for word, then real PostgreSQL failures through it and through the service.
@Suite("Store failures on the wire")
struct StoreErrorRegistryErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let error: StoreError
        let status: StatusCode
        let message: String
        var testDescription: String { error.description }

        init(_ code: StoreError.Code, _ sqlState: SQLState? = nil, _ status: StatusCode, _ message: String) {
            error = StoreError(code, sqlState: sqlState, detail: "INSERT INTO apps VALUES ('secret-value')")
            self.status = status
            self.message = message
        }
    }

    static let unavailable = "the database is unavailable; try again"
    static let conflicts = "the change conflicts with other resources that depend on it"
    static let invalid = "a value is not valid"
    static let tooLong = "the database took too long; nothing was changed"

    /// Every status and message as clients have always seen them (tests and clients match on these).
    static let cases: [Case] = [
        Case(.connectionFailed, nil, .unavailable, unavailable),
        Case(.connectionFailed, SQLState(rawValue: "08006"), .unavailable, unavailable),
        Case(.poolTimeout, nil, .unavailable, unavailable),
        Case(.poolClosed, nil, .unavailable, unavailable),
        Case(
            .commitOutcomeUnknown, nil, .unavailable,
            "the database connection was lost while committing; the change may or may not have been saved"),
        Case(.serverError, SQLState(rawValue: "08003"), .unavailable, unavailable),
        Case(.serverError, .adminShutdown, .unavailable, unavailable),
        Case(.serverError, .crashShutdown, .unavailable, unavailable),
        Case(.serverError, .cannotConnectNow, .unavailable, unavailable),
        Case(.serverError, .tooManyConnections, .unavailable, unavailable),
        Case(.invalidValue, nil, .invalidArgument, "a value cannot be stored"),
        Case(
            .deadlineExceeded, nil, .deadlineExceeded,
            "the database did not answer before the deadline; nothing was changed"),
        Case(.serverError, .uniqueViolation, .alreadyExists, "the resource already exists"),
        Case(.serverError, .foreignKeyViolation, .failedPrecondition, conflicts),
        Case(.serverError, .restrictViolation, .failedPrecondition, conflicts),
        Case(.serverError, .objectNotInPrerequisiteState, .failedPrecondition, conflicts),
        Case(.serverError, .checkViolation, .invalidArgument, invalid),
        Case(.serverError, .notNullViolation, .invalidArgument, invalid),
        Case(.serverError, .invalidTextRepresentation, .invalidArgument, invalid),
        Case(.serverError, .stringDataRightTruncation, .invalidArgument, invalid),
        Case(.serverError, .characterNotInRepertoire, .invalidArgument, invalid),
        Case(.serverError, .untranslatableCharacter, .invalidArgument, invalid),
        Case(.serverError, .numericValueOutOfRange, .invalidArgument, invalid),
        Case(
            .serverError, .serializationFailure, .aborted, "the change conflicted with a concurrent change; try again"),
        Case(.serverError, .deadlockDetected, .aborted, "the change conflicted with a concurrent change; try again"),
        Case(.serverError, .queryCanceled, .deadlineExceeded, tooLong),
        Case(.serverError, .lockNotAvailable, .deadlineExceeded, tooLong),
        Case(
            .serverError, .readOnlySQLTransaction, .failedPrecondition,
            "the database is a read-only replica (hot standby); send writes to a server connected to the primary"),
        Case(.serverError, .inFailedSQLTransaction, .internal, "internal error"),
        Case(.serverError, SQLState(rawValue: "42601"), .internal, "internal error"),
        Case(.serverError, nil, .internal, "internal error"),
        Case(.decodingFailed, nil, .internal, "internal error"),
        Case(.migrationChanged, nil, .internal, "internal error"),
        Case(.migrationFailed, nil, .internal, "internal error"),
    ]

    @Test(arguments: cases) func eachStoreFailureHasItsStatusAndMessage(_ case: Case) {
        let mapped = RegistryError(storeFailure: `case`.error)
        #expect(mapped.code == `case`.status)
        #expect(mapped.message == `case`.message)
        #expect(mapped.fieldViolations.isEmpty)
        #expect(!mapped.message.contains("secret-value") && !mapped.message.contains("INSERT"))
    }

    /// The store's domain answers name the resource; the service words them, field included where one is at
    /// fault.
    @Test func domainAnswersAreWordedByTheService() {
        let answers: [(StoreError, StatusCode, String, [String])] = [
            (.notFound(.app("badoo")), .notFound, "apps/badoo not found", []),
            (
                StoreError(.alreadyExists, resource: .route(app: "badoo", id: "x")), .alreadyExists,
                "apps/badoo/routes/x already exists", []
            ),
            (
                .stale(.domain("m.badoo.com")), .aborted,
                "domains/m.badoo.com was changed by someone else; get it again and retry", []
            ),
            (
                .stale(.link("go.badoo.com", "summer")), .aborted,
                "domains/go.badoo.com/links/summer was changed by someone else; get it again and retry", []
            ),
            (
                StoreError(.badPageToken), .invalidArgument, "pageToken: is not a token this server issued",
                ["pageToken"]
            ),
            (
                StoreError(.incompleteOrder, resource: .routes(app: "badoo")), .invalidArgument,
                "routes: must list every route of the app exactly once", ["routes"]
            ),
            (
                StoreError(.requestReused, detail: "Apps.Create k-1"), .invalidArgument,
                "requestId: was already used with different params for this method; a retry must send the same "
                    + "params, and another call needs a new requestId", ["requestId"]
            ),
        ]
        for (error, status, message, fields) in answers {
            let mapped = RegistryError(storeFailure: error)
            #expect(mapped.code == status && mapped.message == message, "\(error)")
            #expect(mapped.fieldViolations.map(\.field) == fields)
        }
        // A domain answer missing its resource is a bug in the store, not something to word.
        #expect(RegistryError(storeFailure: StoreError(.notFound)).code == .internal)
    }

    @Test func registryErrorsPassAsTheyAreAndAnythingElseIsInternal() {
        var notFound = RegistryError.notFound(.app("ghost"))
        notFound.fieldViolations = [FieldViolation(field: "app", description: "no such app")]
        let passed = RegistryError(storeFailure: notFound)
        #expect(passed.code == .notFound && passed.message == "apps/ghost not found")
        #expect(passed.fieldViolations == notFound.fieldViolations)
        struct Surprise: Error { let secret = "secret-value" }
        let surprise = RegistryError(storeFailure: Surprise())
        #expect(surprise.code == .internal && surprise.message == "internal error")
    }

    /// `mapped` is how the service uses the mapping: it logs what the client is not told, except for a lost
    /// connection (the runtime reports outages once, not per call).
    @Test func mappedLogsWhatTheClientIsNotTold() throws {
        let fixture = try ServiceFixture(suite: "store_error_mapping")
        let service = fixture.service
        let check = StoreError(.serverError, sqlState: .checkViolation, detail: "new row violates check secret-value")
        let refused = try #require(throws: RegistryError.self) {
            try service.mapped { () throws -> Int in throw check }
        }
        #expect(refused.code == .invalidArgument && refused.message == Self.invalid)
        #expect(fixture.log.all.last == "store: new row violates check secret-value")

        let lines = fixture.log.all.count
        let lost = StoreError(.connectionFailed, detail: "could not connect to server")
        let down = try #require(throws: RegistryError.self) { try service.mapped { () throws -> Int in throw lost } }
        #expect(down.code == .unavailable && down.message == Self.unavailable)
        #expect(fixture.log.all.count == lines)

        let answer = RegistryError.notFound(.app("ghost"))
        let passed = try #require(throws: RegistryError.self) {
            try service.mapped { () throws -> Int in throw answer }
        }
        #expect(passed.code == answer.code && passed.message == answer.message)
        #expect(fixture.log.all.count == lines)

        struct Surprise: Error, CustomStringConvertible { var description: String { "surprise" } }
        let unexpected = try #require(throws: RegistryError.self) {
            try service.mapped { () throws -> Int in throw Surprise() }
        }
        #expect(unexpected.code == .internal)
        #expect(fixture.log.all.last == "internal: surprise")
        #expect(try service.mapped { 42 } == 42)
    }

    /// Real SQLSTATEs from PostgreSQL, mapped: the messages name no table, statement or value.
    @Test func realConstraintFailuresMapWithoutLeakingSQL() throws {
        let fixture = try ServiceFixture(suite: "store_error_mapping")
        let insert: SQLQuery = "INSERT INTO apps (id) VALUES (\("taken"))"
        try fixture.pool.withTransaction { tx in try tx.query(insert) }
        let unique = try #require(throws: StoreError.self) {
            try fixture.pool.withTransaction { tx in try tx.query(insert) }
        }
        #expect(unique.sqlState == .uniqueViolation)
        let duplicate = RegistryError(storeFailure: unique)
        #expect(duplicate.code == .alreadyExists && duplicate.message == "the resource already exists")

        let check = try #require(throws: StoreError.self) {
            try fixture.pool.withTransaction { tx in try tx.query("INSERT INTO apps (id) VALUES (\("Secret Value"))") }
        }
        let invalid = RegistryError(storeFailure: check)
        #expect(invalid.code == .invalidArgument && invalid.message == Self.invalid)
        for message in [duplicate.message, invalid.message] {
            #expect(!message.contains("apps") && !message.contains("Secret") && !message.contains("INSERT"))
        }

        // Through the service, a repository names what exists (its domain answer), and nothing is written.
        try fixture.seedApp()
        let audited = try fixture.audit().count
        let again = try #require(throws: RegistryError.self) {
            try fixture.service.createApp(App(id: "badoo", ios: ServiceFixture.ios), by: ServiceFixture.admin)
        }
        #expect(again.code == .alreadyExists && again.message == "\(ResourceName.app("badoo")) already exists")
        #expect(try fixture.audit().count == audited)
    }

    /// A service whose database cannot be reached answers UNAVAILABLE to reads and writes, in the words
    /// clients retry on, and logs nothing per call.
    @Test func anUnreachableDatabaseIsUnavailable() throws {
        let port = try freeLoopbackPort()
        let pool = Database(
            Database.Configuration(
                url: "postgresql://routereg@127.0.0.1:\(port)/nowhere", poolSize: 1, acquireTimeout: .seconds(2),
                connectTimeoutSeconds: 2, defaultTimeout: .seconds(3)))
        defer { pool.close() }
        let log = LogLines()
        let service = RegistryService(store: Store(database: pool), options: .init(log: { log.append($0) }))
        #expect(!service.start())
        let started = ContinuousClock.now

        let read = try #require(throws: RegistryError.self) { try service.getApp("badoo") }
        #expect(read.code == .unavailable && read.message == Self.unavailable)
        let write = try #require(throws: RegistryError.self) {
            try service.createApp(App(id: "badoo", ios: ServiceFixture.ios), by: ServiceFixture.admin)
        }
        #expect(write.code == .unavailable && write.message == Self.unavailable)
        #expect(started.duration(to: .now) < .seconds(5))
        #expect(!log.all.contains { $0.hasPrefix("store:") || $0.hasPrefix("internal:") })
    }
}
