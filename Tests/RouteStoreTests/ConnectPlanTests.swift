import Foundation
import Testing

@testable import RouteStore

/// A connection string split into the hosts the connect races: libpq's pairing of hosts, addresses and
/// ports, and which names need resolving.
@Suite("ConnectPlan: one candidate per host of a connection string")
struct ConnectPlanTests {
    @Test func aFailoverURIGivesEachHostItsOwnPort() throws {
        let plan = try ConnectPlan(
            conninfo: "postgresql://u:secret@db1.internal:5433,10.0.0.2:5434/app?target_session_attrs=read-write")
        #expect(
            plan.hosts == [
                .init(name: "db1.internal", address: nil, port: "5433"),
                .init(name: "10.0.0.2", address: nil, port: "5434"),
            ])
        #expect(plan.hosts.map(\.needsResolution) == [true, false])
        #expect(plan.targetSessionAttributes == "read-write")
        let options = Dictionary(plan.options, uniquingKeysWith: { $1 })
        #expect(options["dbname"] == "app" && options["user"] == "u" && options["password"] == "secret")
        #expect(options["host"] == nil && options["port"] == nil)
    }

    @Test func oneListedPortAppliesToEveryHost() {
        let hosts = ConnectPlan.hosts(names: "a,b,c", addresses: nil, ports: "6000")
        #expect(hosts.map(\.port) == ["6000", "6000", "6000"])
        #expect(hosts.map(\.name) == ["a", "b", "c"])
    }

    @Test func givenAddressesAndSocketDirectoriesNeedNoResolution() throws {
        let plan = try ConnectPlan(
            conninfo: "host=primary.internal,/run/postgresql hostaddr=192.0.2.7, port=5432 dbname=x")
        #expect(plan.hosts.map(\.needsResolution) == [false, false])
        #expect(plan.hosts[0].address == "192.0.2.7" && plan.hosts[1].address == nil)
        #expect(try ConnectPlan(conninfo: "host=::1 dbname=x").hosts.map(\.needsResolution) == [false])
    }

    @Test func theURLsConnectTimeoutBoundsTheRaceWithLibpqsFloor() throws {
        #expect(try ConnectPlan(conninfo: "postgresql://h/x?connect_timeout=1").connectTimeoutSeconds == 2)
        #expect(try ConnectPlan(conninfo: "postgresql://h/x?connect_timeout=7").connectTimeoutSeconds == 7)
        #expect(try ConnectPlan(conninfo: "postgresql://h/x?connect_timeout=0").connectTimeoutSeconds == nil)
        #expect(try ConnectPlan(conninfo: "postgresql://h/x").connectTimeoutSeconds == nil)
    }

    @Test func anInvalidStringIsConnectionFailedWithLibpqsReasonForTheLogOnly() {
        let error = #expect(throws: StoreError.self) { try ConnectPlan(conninfo: "host=a nonsense_option=1") }
        #expect(error?.code == .connectionFailed)
        #expect(error?.logDetail.contains("nonsense_option") == true)
    }

    @Test func aNameThatDoesNotResolveFailsWithItsNameWithinTheConnectTimeout() throws {
        let started = ContinuousClock.now
        let error = #expect(throws: StoreError.self) {
            try Connection(url: "postgresql://u@no-such-host.invalid:5432/x", connectTimeoutSeconds: 2)
        }
        // Refused by the resolver, or still unanswered at the bound (a machine whose DNS servers are unreachable).
        #expect(error?.code == .connectionFailed || error?.code == .deadlineExceeded)
        #expect(error?.logDetail.contains("no-such-host.invalid") == true, "\(error?.logDetail ?? "")")
        #expect(started.duration(to: .now) < .seconds(3))
    }
}
