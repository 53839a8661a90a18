import Foundation
import RouteCore
import RouteStore
import Testing

@testable import RegistryService

/// A server's own write comes back to it as a NOTIFY; its snapshot is already that state, so it asks the
/// database nothing. A notification of another state (another server's write, or one from a server that
/// does not name its state) is refreshed as before.
@Suite struct OwnNotificationTests {
    @Test func aNotificationOfTheServedStateIsSkipped() {
        let snapshot = Snapshot(registry: Registry(), documents: [:], tokens: [:], generation: 7, writeToken: "own")
        #expect(
            RegistryRuntime.isAlreadyServed(
                ChangeNotice(kind: "Releases.Publish", ids: [], writeToken: "own"), by: snapshot))
        #expect(
            !RegistryRuntime.isAlreadyServed(
                ChangeNotice(kind: "Releases.Publish", ids: [], writeToken: "other"), by: snapshot))
        #expect(!RegistryRuntime.isAlreadyServed(ChangeNotice(kind: "Releases.Publish", ids: []), by: snapshot))
        #expect(
            !RegistryRuntime.isAlreadyServed(ChangeNotice(kind: "x", ids: [], writeToken: "own"), by: Snapshot.empty))
    }

    @Test func thePayloadCarriesTheWriteTokenAndOlderPayloadsStillDecode() {
        let notice = ChangeNotice(kind: "Routes.SwitchOff", ids: ["apps/badoo/routes/lookalikes"], writeToken: "t-1")
        #expect(ChangeNotice(payload: notice.payload) == notice)
        let older = ChangeNotice(payload: #"{"ids":["apps/badoo"],"kind":"Apps.Create"}"#)
        #expect(older == ChangeNotice(kind: "Apps.Create", ids: ["apps/badoo"]))
        #expect(older.writeToken == nil)
    }
}
