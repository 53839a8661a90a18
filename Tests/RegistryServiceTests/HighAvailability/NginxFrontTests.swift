import Foundation
import RegistryAPI
import RegistryTesting
import ProcessSpawn
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The nginx configuration DEPLOYMENT.md recommends (`deploy/nginx/routereg.conf`, read here as committed,
/// with only its marked values pointed at this test's ports and directories) in a real nginx in front of a real
/// registry server: it caches the well-known files, passes the API through uncached, keeps serving the last
/// AASA when routereg is down, and passes `/rpc` and `/console/` only for the API's names, `/metrics` never.
@Suite(.serialized) struct NginxFrontTests {
    @Test func nginxServesTheCachedAASAWhileRoutregIsDown() async throws {
        let server = try TestRegistryServer(suite: "nginx", cacheMaxAge: 1)
        defer { server.shutdown() }
        try await seedBadoo(server)
        let nginx = try NginxProcess(upstreamPort: server.server.port)
        defer { nginx.stop() }
        let port = UInt16(nginx.port)
        let path = "/.well-known/apple-app-site-association"

        let (direct, _) = try await server.get(path, host: "m.badoo.com")
        let first = await ProbeClient.onThread { ProbeClient.request(port: port, "GET", path, host: "m.badoo.com") }
        #expect(first.status == 200)
        #expect(first.body == String(decoding: direct, as: UTF8.self))
        #expect(first.header("X-Cache-Status") == "MISS", "\(first.head)")
        let second = await ProbeClient.onThread { ProbeClient.request(port: port, "GET", path, host: "m.badoo.com") }
        // From the cache: HIT, or STALE/UPDATING when the loaded machine took past max-age=1 to ask again.
        #expect(
            ["HIT", "STALE", "UPDATING", "REVALIDATED"].contains(second.header("X-Cache-Status") ?? ""),
            "\(second.head)")
        let check = """
            {"jsonrpc":"2.0","id":1,"method":"CanOpen.Check","params":{"app":"badoo","platform":"ios",\
            "version":"5.11.0","url":"https://m.badoo.com/u/1"}}
            """
        let rpc = await ProbeClient.onThread { ProbeClient.request(port: port, "POST", "/rpc", body: check) }
        #expect(rpc.body.contains("open_in_app"), "the API passes through: \(rpc.head)")
        #expect(rpc.header("X-Cache-Status") == nil, "the API is never cached")

        server.stop()
        try await Task.sleep(for: .seconds(2))  // Past routereg's max-age=1: the copy is stale now.
        let during = await ProbeClient.onThread { ProbeClient.request(port: port, "GET", path, host: "m.badoo.com") }
        #expect(during.status == 200, "\(during.head)")
        #expect(during.body == first.body, "the cached AASA is served while routereg is down")
        #expect(during.header("X-Cache-Status") == "STALE", "\(during.head)")
        let api = await ProbeClient.onThread { ProbeClient.request(port: port, "POST", "/rpc", body: check) }
        #expect(api.status == 502, "the API is not answered from a cache: \(api.head)")
    }

    @Test func nginxPassesTheAdminSurfacesOnlyForTheAPIHost() async throws {
        // routereg itself would answer them on m.badoo.com: what is refused here, nginx refused.
        let server = try TestRegistryServer(
            suite: "nginx_admin", console: true, adminSurfaces: AdminSurfaces(adminHosts: ["m.badoo.com"]))
        defer { server.shutdown() }
        try await seedBadoo(server)
        let nginx = try NginxProcess(upstreamPort: server.server.port)
        defer { nginx.stop() }
        let port = UInt16(nginx.port)
        let discover = #"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#
        func request(_ method: String, _ path: String, host: String) async -> ProbeClient.Answer {
            await ProbeClient.onThread {
                ProbeClient.request(port: port, method, path, host: host, body: method == "POST" ? discover : "")
            }
        }
        #expect(await request("POST", "/rpc", host: "localhost").status == 200)
        #expect(await request("GET", "/console/", host: "localhost").status == 200)
        #expect(await request("POST", "/rpc", host: "m.badoo.com").status == 404)
        #expect(await request("GET", "/console/", host: "m.badoo.com").status == 404)
        for host in ["localhost", "m.badoo.com"] {
            let metrics = await request("GET", "/metrics", host: host)
            #expect(metrics.status == 404 && !metrics.body.contains("routereg_"), "\(metrics.head)")
        }
        // Directly, from loopback, the scraper still reads it.
        #expect(try await server.get("/metrics").1.statusCode == 200)
        #expect(await request("GET", "/.well-known/apple-app-site-association", host: "m.badoo.com").status == 200)
    }
}

/// nginx in the foreground with a wrapper configuration that includes `deploy/nginx/routereg.conf`, spawned
/// through the project's posix_spawn helper in a process group of its own that dies with the test process.
private struct NginxProcess {
    let port: Int
    let directory: String
    let process: SpawnedProcess

    init(upstreamPort: UInt16) throws {
        let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let binary else { throw HAError("nginx is not installed (scripts/bootstrap test installs it)") }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(
            contentsOf: root.appendingPathComponent("deploy/nginx/routereg.conf"), encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-nginx-\(UUID())").path
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory + "/cache", withIntermediateDirectories: true)
        let port = try freeLoopbackPort()
        self.port = port
        var config = committed
        for (marked, value) in [
            ("/var/cache/nginx/routereg", directory + "/cache"),
            ("server 127.0.0.1:8080", "server 127.0.0.1:\(upstreamPort)"),
            ("listen 80;", "listen 127.0.0.1:\(port);"),
        ] {
            guard config.components(separatedBy: marked).count == 2 else {
                throw HAError("deploy/nginx/routereg.conf no longer has exactly one `\(marked)`: update this test")
            }
            config = config.replacingOccurrences(of: marked, with: value)
        }
        try config.write(toFile: directory + "/routereg.conf", atomically: true, encoding: .utf8)
        let main = NginxMainConfig.text(
            directory: directory, workerConnections: 64, http: "    include \(directory)/routereg.conf;")
        try main.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        process = try Spawn(
            binary, ["-p", directory, "-c", directory + "/nginx.conf"],
            standardOutput: .file(directory + "/stdout.log"),
            standardError: .standardOutput
        ).start()
        let deadline = ContinuousClock.now + .seconds(10)
        while ProbeClient.request(port: UInt16(port), "GET", "/nginx-started").status == 0 {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.kill()
                let log = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
                throw HAError("nginx did not start: \(log.suffix(1000))")
            }
            usleep(20_000)
        }
    }

    func stop() {
        process.signal(SIGTERM)
        if process.wait(timeout: .seconds(5)) == nil { process.kill() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
