import Foundation
import ProcessSpawn
import RegistryTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `routereg domain verify` against a real local nginx with a throwaway certificate for m.badoo.com: one port
/// per way an origin can fail Apple's crawler, each named in one line, and a correct origin that passes.
@Suite(
    .serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed"))
struct DomainVerifyTests {
    static let host = "m.badoo.com"
    static let scenarios = ["good", "redirect", "type", "large", "invalid", "stale", "plain"]

    @Test func eachFailureIsNamed() async throws {
        let server = try TestRegistryServer(suite: "routereg_verify")
        defer { server.shutdown() }
        let session = ReleaseDayTests.Session(server: server)
        try await session.ok(["app", "create", "badoo", "--ios-app-id", "ABCDE12345.com.badoo.Badoo"])
        try await session.ok(["domain", "add", Self.host, "--app", "badoo"])
        try await session.ok(["route", "add", "badoo", "profile", "/u/*", "--since", "ios=5.0"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.11.0"])
        try await session.ok(["route", "add", "badoo", "lookalikes", "/l/a/*", "--since", "ios=5.12.0"])
        try await session.ok(["release", "publish", "badoo", "ios", "5.12.0"])
        let latest = try #require(server.service.snapshot.document(host: Self.host, kind: .aasa))

        let nginx = try VerifyOrigin(
            current: latest.bytes, old: try revision(server, latest.revision - 1), scenarios: Self.scenarios)
        defer { nginx.stop() }

        func verify(_ scenario: String) async throws -> RunResult {
            try await session.run([
                "domain", "verify", Self.host, "--kind", "aasa", "--connect-to", "127.0.0.1:\(nginx.ports[scenario]!)",
                "--ca-file", nginx.certificate, "--timeout", "5",
            ])
        }
        let good = try await verify("good")
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(
            good.stdout.contains("ok apple-app-site-association: serves revision \(latest.revision)"), "\(good.stdout)")

        let expected = [
            "redirect": "redirect: 301", "type": "content type: text/plain", "large": "too large",
            "invalid": "invalid JSON", "stale": "stale: serves revision \(latest.revision - 1)",
            "plain": "plain HTTP",
        ]
        for (scenario, failure) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try await verify(scenario)
            #expect(result.status == 1, "\(scenario): \(result.stdout)\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
            #expect(lines.count == 1, "\(scenario): \(result.stdout)")
            #expect(
                lines.first?.contains("FAIL apple-app-site-association: \(failure)") == true,
                "\(scenario): \(result.stdout)")
        }
        // Without the throwaway certificate trusted, TLS itself fails, and says so.
        let untrusted = try await session.run([
            "domain", "verify", Self.host, "--kind", "aasa", "--connect-to", "127.0.0.1:\(nginx.ports["good"]!)",
        ])
        #expect(untrusted.status == 1)
        #expect(untrusted.stdout.contains("FAIL apple-app-site-association: TLS"), "\(untrusted.stdout)")
    }

    func revision(_ server: TestRegistryServer, _ number: Int) throws -> Data {
        try #require(
            try server.service.store.read { tx in
                try server.service.store.revisions.get(host: Self.host, kind: .aasa, number: number, in: tx)
            }
        ).bytes
    }
}

/// nginx in the foreground serving m.badoo.com's AASA on one port per scenario, with a throwaway
/// certificate made by openssl; spawned through ProcessSpawn in a process group that dies with the test.
private struct VerifyOrigin {
    let directory: String
    let certificate: String
    let ports: [String: Int]
    let process: SpawnedProcess

    init(current: Data, old: Data, scenarios: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-verify-\(UUID())").path
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        certificate = directory + "/cert.pem"
        let openssl = try Spawn(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem", "-out",
                certificate, "-days", "2", "-subj", "/CN=m.badoo.com", "-addext", "subjectAltName=DNS:m.badoo.com",
            ]
        ).run(timeout: .seconds(60))
        guard openssl.succeeded else { throw VerifyError("openssl: \(openssl.output)") }
        try current.write(to: URL(fileURLWithPath: directory + "/current.json"))
        try old.write(to: URL(fileURLWithPath: directory + "/old.json"))
        var invalid = String(decoding: current, as: UTF8.self)
        invalid.removeLast()
        try Data((invalid + ",}").utf8).write(to: URL(fileURLWithPath: directory + "/invalid.json"))
        let filler = String(repeating: "x", count: 200 * 1024)
        try Data(#"{"applinks":{"details":[]},"filler":"\#(filler)"}"#.utf8).write(
            to: URL(fileURLWithPath: directory + "/large.json"))

        var ports: [String: Int] = [:]
        var servers = ""
        for scenario in scenarios {
            let port = try freeLoopbackPort()
            ports[scenario] = port
            let tls = scenario == "plain" ? "" : " ssl"
            let file =
                switch scenario {
                case "large": "large.json"
                case "invalid": "invalid.json"
                case "stale": "old.json"
                default: "current.json"
                }
            let body =
                scenario == "redirect"
                ? "return 301 https://www.m.badoo.com$request_uri;"
                : "types { } default_type \(scenario == "type" ? "text/plain" : "application/json"); alias \(directory)/\(file);"
            servers += """
                server {
                    listen 127.0.0.1:\(port)\(tls);
                    server_name m.badoo.com;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(directory)/key.pem;
                    location = /.well-known/apple-app-site-association { \(body) }
                }

                """
        }
        self.ports = ports
        let config = NginxMainConfig.text(directory: directory, workerConnections: 64, http: servers)
        try config.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        process = try Spawn(
            "/usr/sbin/nginx", ["-p", directory, "-c", directory + "/nginx.conf"],
            standardOutput: .file(directory + "/stdout.log"), standardError: .standardOutput
        ).start()
        // Started when the plain-HTTP port accepts connections.
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.accepts(port: ports["plain"]!) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.kill()
                let log = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
                throw VerifyError("nginx did not start: \(log.suffix(1000))")
            }
            usleep(20_000)
        }
    }

    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    func stop() {
        process.signal(SIGTERM)
        if process.wait(timeout: .seconds(5)) == nil { process.kill() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

private struct VerifyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
