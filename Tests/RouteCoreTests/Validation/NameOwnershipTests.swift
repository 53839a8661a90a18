import Testing

@testable import RouteCore

/// Names belong to one app: a write adding another app's iOS app ID, Android package or host pattern is
/// refused ALREADY_EXISTS naming the field, the name and the owner; names held already stay.
@Suite struct NameOwnershipTests {
    static let badoo = App(
        id: "badoo", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"], appClips: ["ABCDE12345.com.badoo.Clip"]),
        android: AndroidConfig(packageName: "com.badoo.mobile", sha256CertFingerprints: []), hosts: ["*.badoo.com"])
    static let domains = [
        Domain(host: "m.badoo.com", apps: ["badoo"]), Domain(host: "shared.example.com", apps: ["badoo", "rt"]),
    ]

    static func conflict(_ app: App, before: App? = nil) -> NameOwnership.Conflict? {
        NameOwnership.conflict(claimedBy: app, before: before, others: [badoo, app], domains: domains)
    }

    @Test func anotherAppsIOSAppIDOrClipIsTaken() throws {
        let rt = App(id: "rt", ios: IOSConfig(appIds: ["RTRTRT1234.com.rt", "ABCDE12345.com.badoo.Badoo"]))
        let found = try #require(Self.conflict(rt))
        #expect(found.field == "app.ios.appIds[1]" && found.owner == "badoo")
        let error = found.error
        #expect(error.code == .alreadyExists)
        #expect(error.message.contains("ABCDE12345.com.badoo.Badoo") && error.message.contains("apps/badoo"))
        let clip = App(id: "rt", ios: IOSConfig(appIds: ["RTRTRT1234.com.rt"], appClips: ["ABCDE12345.com.badoo.Clip"]))
        #expect(Self.conflict(clip)?.field == "app.ios.appClips[0]")
        // The app's clip ID is badoo's app ID as well as the other way round.
        let asClip = App(id: "rt", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Clip"]))
        #expect(Self.conflict(asClip)?.owner == "badoo")
    }

    @Test func anotherAppsPackageIsTaken() {
        let rt = App(id: "rt", android: AndroidConfig(packageName: "com.badoo.mobile", sha256CertFingerprints: []))
        #expect(Self.conflict(rt)?.field == "app.android.packageName")
    }

    @Test func aPatternOverlappingAnotherAppsPatternOrDomainIsTaken() {
        #expect(Self.conflict(App(id: "rt", hosts: ["*.login.badoo.com"]))?.owner == "badoo")
        let reaching = Self.conflict(App(id: "rt", hosts: ["*.example.com"]))
        #expect(reaching?.owner == "badoo" && reaching?.heldAs?.contains("domains/shared.example.com") == true)
        #expect(Self.conflict(App(id: "rt", hosts: ["*.rt.example.com", "rt.example.com"])) == nil)
    }

    @Test func namesAlreadyHeldStayHeld() {
        // Shared before names had owners (or on purpose): updating either app keeps working.
        let rt = App(id: "rt", ios: IOSConfig(appIds: ["ABCDE12345.com.badoo.Badoo"]))
        var renamed = rt
        renamed.displayName = "RT"
        #expect(Self.conflict(renamed, before: rt) == nil)
        #expect(Self.conflict(rt) != nil)
    }
}
