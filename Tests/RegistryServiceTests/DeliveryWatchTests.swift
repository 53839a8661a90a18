import Foundation
import RegistryService
import RegistryTesting
import RouteCore
import RouteStore
import Testing

/// The delivery watch against a local stand-in for Apple's CDN and Google's Digital Asset Links API: over time
/// it serves an old revision, the current one (re-serialised), 304s, a 404, a 500, an answer that hangs past
/// the deadline, 10 MB, invalid JSON and a file the registry never published. Each is recorded with the right
/// outcome, `Associations.Delivery` and the metrics follow, and the server keeps answering throughout.
@Suite(.serialized) struct DeliveryWatchTests {
    static let host = "m.badoo.com"

    /// Fast timings, so each step is observed within a second or two.
    static func options(_ standIn: StandInDeliveryService) -> DeliveryWatch.Options {
        DeliveryWatch.Options(
            appleCDN: standIn.baseURL, assetLinksAPI: standIn.baseURL, interval: .milliseconds(300),
            pendingInterval: .milliseconds(300), jitter: 0, fetchTimeout: .milliseconds(700), concurrency: 2,
            errorBackoff: .milliseconds(100), refreshInterval: .milliseconds(100), lockInterval: .milliseconds(200),
            tick: .milliseconds(50))
    }

    /// The delivery of the AASA of `host` as `Associations.Delivery` reports it.
    static func aasa(_ server: TestRegistryServer) async throws -> [String: Any] {
        let documents = try await server.result("Associations.Delivery", ["host": host, "kind": "aasa"])
            .array("documents")
        return try #require(documents.first as? [String: Any])
    }

    /// The newest observation's id of the host's AASA (0 for none): what a step's `waitFor` looks past.
    static func mark(_ server: TestRegistryServer) throws -> Int64 {
        try server.service.store.read { tx in
            try server.service.store.delivery.history(host: host, kind: .aasa, limit: 1, in: tx)
        }.first?.id ?? 0
    }

    /// Waits until an observation newer than `after` has `outcome` (and passes `also`), read from the database
    /// so a quick succession of observations (a 200 at once followed by 304s) cannot hide it; returns the
    /// status `Associations.Delivery` reports then.
    static func waitFor(
        _ outcome: String, on server: TestRegistryServer, after: Int64, within: Duration = .seconds(15),
        also: @escaping @Sendable (DeliveryObservation) -> Bool = { _ in true }
    ) async throws -> [String: Any] {
        var seenOutcomes: [String] = []
        let seen = try await eventually(within: within) {
            let history = try server.service.store.read { tx in
                try server.service.store.delivery.history(host: host, kind: .aasa, limit: 200, in: tx)
            }.filter { $0.id > after }
            seenOutcomes = history.map(\.outcome.rawValue)
            return history.contains { $0.outcome.rawValue == outcome && also($0) }
        }
        #expect(seen, "no \(outcome) observation; seen \(seenOutcomes)")
        return try await aasa(server)
    }

    /// The value of a metric line `name{host="…",kind="aasa"}`, or nil.
    static func metric(_ name: String, _ server: TestRegistryServer) async throws -> Double? {
        let (data, _) = try await server.get("/metrics")
        let prefix = "\(name){host=\"\(host)\",kind=\"aasa\"} "
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
            return Double(line.dropFirst(prefix.count))
        }
        return nil
    }

    /// The newest revision number of the host's AASA.
    static func latestRevision(_ server: TestRegistryServer) throws -> Int {
        try #require(server.service.snapshot.document(host: host, kind: .aasa)).revision
    }

    static func revisionBytes(_ server: TestRegistryServer, _ number: Int) throws -> Data {
        try #require(
            try server.service.store.read { tx in
                try server.service.store.revisions.get(host: host, kind: .aasa, number: number, in: tx)
            }
        ).bytes
    }

    @Test func everyAnswerOfTheCDNIsRecordedAndReported() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        let server = try TestRegistryServer(suite: "delivery", delivery: Self.options(standIn))
        defer { server.shutdown() }
        try await seedBadoo(server)
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        let latest = try Self.latestRevision(server)
        let old = try Self.revisionBytes(server, latest - 1)
        let current = try Self.revisionBytes(server, latest)
        #expect(old != current)

        // An old revision: one behind.
        standIn.setAASA(Self.host, .serve(old))
        var status = try await Self.waitFor("served", on: server, after: 0) { $0.matchedRevision == latest - 1 }
        #expect(status.int("servedRevision") == latest - 1)
        #expect(status.int("currentRevision") == latest)
        #expect(status.int("revisionsBehind") == 1)
        #expect(status.string("served") == "revision")
        #expect(
            try await eventually(within: .seconds(10)) {
                try await Self.metric("routereg_delivery_revisions_behind", server) == 1
            })
        #expect((try await Self.metric("routereg_delivery_seconds_behind", server) ?? -1) >= 0)

        // The current one, re-serialised (pretty-printed, keys in another order): matched by meaning.
        let object = try JSONSerialization.jsonObject(with: current)
        let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
        #expect(pretty != current)
        var mark = try Self.mark(server)
        standIn.setAASA(Self.host, .serve(pretty))
        status = try await Self.waitFor("served", on: server, after: mark) { $0.matchedRevision == latest }
        #expect(status.int("servedRevision") == latest)
        #expect(status.int("revisionsBehind") == 0)
        #expect(status.int("secondsBehind") == 0)
        #expect(
            try await eventually(within: .seconds(10)) {
                try await Self.metric("routereg_delivery_revisions_behind", server) == 0
            })

        // Conditional requests: the next fetch sends the ETag back and gets a 304, recorded as unchanged.
        status = try await Self.waitFor("unchanged", on: server, after: mark)
        #expect(status.int("servedRevision") == latest)
        #expect(standIn.requests.contains { $0.ifNoneMatch != nil })

        // A 404: the CDN holds no copy.
        mark = try Self.mark(server)
        standIn.setAASA(Self.host, .status(404))
        status = try await Self.waitFor("not_found", on: server, after: mark)
        #expect(status.string("served") == "none")
        #expect(status.int("revisionsBehind") == -1)

        // A 500: recorded, and what is served stays the last known (none).
        mark = try Self.mark(server)
        standIn.setAASA(Self.host, .status(500))
        status = try await Self.waitFor("http_error", on: server, after: mark) { $0.httpStatus == 500 }
        #expect(status.int("lastHttpStatus") == 500)
        #expect(status.string("served") == "none")

        // An answer that hangs past the deadline: a timeout, while the server keeps answering.
        mark = try Self.mark(server)
        standIn.setAASA(Self.host, .hang(.seconds(3)))
        // While fetches hang, the server answers as ever.
        for _ in 0..<3 {
            let (_, health) = try await server.get("/healthz")
            #expect(health.statusCode == 200)
            try await Task.sleep(for: .milliseconds(200))
        }
        status = try await Self.waitFor("timeout", on: server, after: mark) { $0.error?.contains("700 ms") == true }
        #expect(status.string("lastError")?.contains("700 ms") == true)

        // 10 MB: cut at the limit.
        mark = try Self.mark(server)
        standIn.setAASA(Self.host, .huge(10 * 1024 * 1024))
        status = try await Self.waitFor("too_large", on: server, after: mark)

        // Invalid JSON (a trailing comma makes iOS ignore the file).
        var invalid = String(decoding: current, as: UTF8.self)
        invalid.removeLast()
        invalid += ",}"
        mark = try Self.mark(server)
        standIn.setAASA(Self.host, .serve(Data(invalid.utf8)))
        status = try await Self.waitFor("invalid_json", on: server, after: mark)
        #expect(status.string("lastError")?.hasPrefix("not strict JSON") == true)

        // A file the registry never published.
        mark = try Self.mark(server)
        standIn.setAASA(
            Self.host, .serve(Data(#"{"applinks":{"details":[{"appIDs":["X.y"],"components":[{"/":"/*"}]}]}}"#.utf8)))
        status = try await Self.waitFor("served", on: server, after: mark) { $0.matchedRevision == nil }
        #expect(status.string("served") == "unpublished")
        #expect(status.int("servedRevision") == nil)
        #expect(status.int("revisionsBehind") == -1)
        #expect(
            try await eventually(within: .seconds(10)) {
                try await Self.metric("routereg_delivery_revisions_behind", server) == -1
            })
        #expect((try await Self.metric("routereg_delivery_last_observation_timestamp_seconds", server) ?? 0) > 1e9)
        // The last outcome: the 200 itself, or the 304s that follow it.
        let (metrics, _) = try await server.get("/metrics")
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(
            ["served", "unchanged"].contains { outcome in
                text.contains(
                    "routereg_delivery_last_observation_outcome{host=\"\(Self.host)\",kind=\"aasa\",outcome=\"\(outcome)\"} 1"
                )
            })

        // Every outcome is in the database.
        let outcomes = Set(
            try server.service.store.read { tx in
                try server.service.store.delivery.history(host: Self.host, kind: .aasa, limit: 1000, in: tx)
            }.map(\.outcome.rawValue))
        for outcome in [
            "served", "unchanged", "not_found", "http_error", "timeout", "too_large", "invalid_json",
        ] {
            #expect(outcomes.contains(outcome), "\(outcome) was not recorded")
        }
        let (_, health) = try await server.get("/healthz")
        #expect(health.statusCode == 200)
    }

    @Test func googlesStatementsAreMatchedToTheAssetlinksRevision() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        let server = try TestRegistryServer(suite: "delivery_android", delivery: Self.options(standIn))
        defer { server.shutdown() }
        let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
        _ = try await server.result(
            "Apps.Create",
            [
                "app": [
                    "id": "shop",
                    "android": ["packageName": "com.example.shop", "sha256CertFingerprints": [fingerprint]],
                ]
            ])
        _ = try await server.result("Domains.Create", ["domain": ["host": "shop.example.com", "apps": ["shop"]]])
        _ = try await server.result(
            "Routes.Create",
            [
                "app": "shop",
                "route": ["id": "items", "pattern": ["path": "/i/*"], "platforms": ["android": ["since": "1.0"]]],
            ])
        _ = try await server.result("Releases.Publish", ["app": "shop", "platform": "android", "version": "1.0"])

        // Google lists nothing yet: none of ours.
        func status() async throws -> [String: Any]? {
            let documents = try await server.result(
                "Associations.Delivery", ["host": "shop.example.com", "kind": "assetlinks"]
            ).array("documents")
            return documents.first as? [String: Any]
        }
        #expect(
            try await eventually(within: .seconds(8)) { try await status()?.string("served") == "unpublished" })
        // Then the app with its fingerprint (Google writes the site with a trailing dot): the current revision.
        standIn.setAssetLinks(
            "shop.example.com",
            .serve(
                StandInDeliveryService.statements(host: "shop.example.com", apps: [("com.example.shop", fingerprint)])))
        #expect(
            try await eventually(within: .seconds(8)) { try await status()?.int("revisionsBehind") == 0 })
        #expect(try await status()?.string("service") == "google-digital-asset-links")
        // Google lists statements, not rules: no routes are claimed for assetlinks.
        #expect(try await status()?["claimedRoutes"] == nil)
        #expect(standIn.requests.contains { $0.path == "/v1/statements:list" && $0.query.contains("relation=") })
    }

    @Test func aNewRevisionIsLookedForSoonerThanTheInterval() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        var options = Self.options(standIn)
        options.interval = .seconds(600)
        options.pendingInterval = .milliseconds(300)
        let server = try TestRegistryServer(suite: "delivery_sooner", delivery: options)
        defer { server.shutdown() }
        try await seedBadoo(server)
        standIn.setAASA(Self.host, .serve(try Self.revisionBytes(server, try Self.latestRevision(server))))
        var seen = try await eventually(within: .seconds(8)) {
            try await Self.aasa(server).int("revisionsBehind") == 0
        }
        #expect(seen)
        func cdnRequests() -> Int { standIn.requests.filter { $0.path.hasPrefix("/a/v1/") }.count }
        let requestsBefore = cdnRequests()
        // Current: the next fetch is 10 minutes away. A publish brings it forward to the pending interval.
        try await Task.sleep(for: .seconds(1))
        #expect(cdnRequests() == requestsBefore, "fetched again although current")
        _ = try await server.result("Releases.Publish", ["app": "badoo", "platform": "ios", "version": "5.12.0"])
        #expect(try await Self.aasa(server).int("revisionsBehind") == 1)
        let askedAgain = await eventually(within: .seconds(5)) { cdnRequests() > requestsBefore }
        #expect(askedAgain, "the CDN was not asked again within the pending interval after the publish")
    }

    @Test func stoppingAbandonsAFetchInFlight() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        var options = Self.options(standIn)
        options.fetchTimeout = .seconds(8)
        let server = try TestRegistryServer(suite: "delivery_stop", delivery: options)
        defer { server.shutdown() }
        standIn.setAASA(Self.host, .hang(.seconds(20)))
        try await seedBadoo(server)
        let asked = await eventually(within: .seconds(8)) {
            standIn.requests.contains { $0.path.hasPrefix("/a/v1/") }
        }
        #expect(asked)
        let start = ContinuousClock.now
        server.delivery?.stop()
        let took = start.duration(to: .now)
        #expect(took < .seconds(3), "stop waited \(took) for a fetch that would have taken 8 s")
        let recorded = try server.service.store.read { tx in
            try server.service.store.delivery.history(host: Self.host, kind: .aasa, limit: 10, in: tx)
        }
        #expect(recorded.allSatisfy { $0.outcome != .timeout && $0.error != "cancelled" })
    }

    @Test func onlyOneOfTwoServersObservesAndBothReport() async throws {
        let standIn = try StandInDeliveryService()
        defer { standIn.stop() }
        // Which server observes is what each says in its log as it takes the observer's lock.
        let firstLog = LogLines()
        let secondLog = LogLines()
        let first = try TestRegistryServer(
            suite: "delivery_fleet", delivery: Self.options(standIn), log: { firstLog.append($0) })
        defer { first.shutdown() }
        let second = try TestRegistryServer(
            suite: "delivery_fleet", database: first.database, delivery: Self.options(standIn),
            log: { secondLog.append($0) })
        defer { second.stop() }
        func lockTaken(_ log: LogLines) -> Int { log.all.filter { $0.hasPrefix(Self.observes) }.count }
        try await seedBadoo(first)
        standIn.setAASA(Self.host, .serve(try Self.revisionBytes(first, try Self.latestRevision(first))))
        let bothReport = try await eventually(within: .seconds(8)) {
            let onSecond = try await Self.metric("routereg_delivery_revisions_behind", second)
            let onFirst = try await Self.metric("routereg_delivery_revisions_behind", first)
            return onFirst == 0 && onSecond == 0
        }
        #expect(bothReport)
        // Exactly one took the lock (it observed, so both report), and no other took it for as long as we look.
        for _ in 0..<10 {
            #expect(lockTaken(firstLog) + lockTaken(secondLog) == 1, "\(firstLog.all) \(secondLog.all)")
            try await Task.sleep(for: .milliseconds(100))
        }
        // The observer stops: the other takes over.
        let (observer, otherLog) = lockTaken(firstLog) == 1 ? (first, secondLog) : (second, firstLog)
        observer.delivery?.stop()
        let tookOver = await eventually(within: .seconds(5)) { lockTaken(otherLog) == 1 }
        #expect(tookOver)
    }

    /// The line a server logs as it takes the observer's lock.
    static let observes = "delivery watch: this server observes"
}
