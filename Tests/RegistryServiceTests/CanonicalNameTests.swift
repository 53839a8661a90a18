import Foundation
import RegistryTesting
import Testing

/// Every resource name has one spelling: a release is named with its version in canonical form however the
/// caller wrote it, in answers, audit entries and Audit.List filters alike.
@Suite(.serialized) struct CanonicalNameTests {
    @Test func aReleaseHasOneNameHoweverItsVersionIsWritten() async throws {
        let server = try TestRegistryServer(suite: "canonical")
        defer { server.shutdown() }
        _ = try await server.result("Apps.Create", ["app": ["id": "app"]])
        let release = "apps/app/platforms/ios/releases/0.0.0"
        let created = try await server.result("Releases.Create", ["app": "app", "platform": "ios", "version": "0"])
        #expect(created.string("name") == release)
        let published = try await server.result(
            "Releases.Publish", ["app": "app", "platform": "ios", "version": "0.0"])
        #expect(published.object("release")?.string("name") == release)
        _ = try await server.result("Releases.Retire", ["app": "app", "platform": "ios", "version": "0.0.0.0"])
        let got = try await server.result("Releases.Get", ["app": "app", "platform": "ios", "version": "00.0"])
        #expect(got.string("name") == release)

        let entries = try await server.result("Audit.List", ["pageSize": 1000]).array("entries")
            .compactMap { ($0 as? [String: Any])?.string("resource") }
            .filter { $0.contains("/releases/") }
        #expect(entries == [release, release, release])
        for spelling in ["0", "0.0", "0.0.0", "0.0.0.0", "000"] {
            let filtered = try await server.result(
                "Audit.List", ["resource": "apps/app/platforms/ios/releases/\(spelling)", "pageSize": 1000])
            #expect(filtered.array("entries").count == 3, "filter spelled \(spelling)")
        }
        // A fourth component that is not zero is part of the name; a missing release is named canonically too.
        let build = try await server.result(
            "Releases.Create", ["app": "app", "platform": "ios", "version": "5.12.0.7"])
        #expect(build.string("name") == "apps/app/platforms/ios/releases/5.12.0.7")
        let missing = try await server.call("Releases.Get", ["app": "app", "platform": "ios", "version": "6"])
        let message = (missing["error"] as? [String: Any])?.string("message") ?? ""
        #expect(message.contains("apps/app/platforms/ios/releases/6.0.0"), "\(message)")
    }
}
