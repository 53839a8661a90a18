import Foundation
import RouteCore
import RouteStore
import Testing

@Suite("Change listener")
struct ChangeListenerTests {
    let fixture: StoreTestDatabase

    init() throws { fixture = try StoreTestDatabase(suite: "listener", migrate: false) }

    private func notify(_ payload: String) throws {
        try fixture.database.withTransaction { tx in
            try tx.query("SELECT pg_notify(\(Store.changeChannel), \(payload))")
        }
    }

    @Test func notificationsArriveInOrderAndOnlyAfterCommit() throws {
        let received = Received<ChangeNotice>()
        let listener = ChangeListener(url: fixture.url, onChange: { received.append($0) })
        #expect(listener.start())
        defer { listener.stop() }
        struct Abandon: Error {}
        _ = try? fixture.database.withTransaction { tx in
            try tx.query("SELECT pg_notify(\(Store.changeChannel), \(#"{"kind":"rolled-back","ids":[]}"#))")
            throw Abandon()
        }
        for index in 1...5 { try notify(#"{"kind":"k","ids":["apps/\#(index)"]}"#) }
        try notify("not json")
        #expect(received.wait(count: 6))
        let values = received.values
        #expect(values.prefix(5).map(\.ids) == (1...5).map { ["apps/\($0)"] })
        #expect(values[5] == ChangeNotice(kind: "unknown", ids: []))
        #expect(!values.contains { $0.kind == "rolled-back" })
    }

    @Test func theListenerComesBackAfterItsSessionIsTerminated() throws {
        let received = Received<ChangeNotice>()
        let reconnects = Attempts()
        let listener = ChangeListener(
            url: fixture.url, maxBackoff: .milliseconds(200), onChange: { received.append($0) },
            onReconnect: { reconnects.increment() })
        #expect(listener.start())
        defer { listener.stop() }
        let pid = listener.backendPID
        #expect(pid != 0)
        try fixture.database.withConnection { try $0.query("SELECT pg_terminate_backend(\(Int(pid)))") }
        let deadline = Date().addingTimeInterval(20)
        while reconnects.value == 0 && Date() < deadline { usleep(20_000) }
        #expect(reconnects.value == 1)
        #expect(listener.isListening && listener.backendPID != pid)
        try notify(#"{"kind":"after","ids":[]}"#)
        #expect(received.wait(count: 1))
        #expect(received.values.map(\.kind) == ["after"])
    }

    @Test func startReportsAnUnreachableServerAndStopStillReturns() throws {
        let listener = ChangeListener(
            url: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=1", maxBackoff: .milliseconds(100),
            onChange: { _ in })
        #expect(!listener.start(timeout: .milliseconds(300)))
        #expect(!listener.isListening)
        listener.stop()
    }
}
