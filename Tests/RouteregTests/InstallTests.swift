import Foundation
import ProcessSpawn
import RegistryTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `make install` as a packager runs it: `scripts/install` into a temporary root (DESTDIR), then the installed
/// binary started with the installed configuration, as routereg.service starts it (`--config`, NOTIFY_SOCKET,
/// the environment file's admin token), against the test PostgreSQL.
@Suite(.serialized, .enabled(if: BinaryRunner.executable != nil, "the routereg binary is not next to the tests"))
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// systemd's notification socket, played by the test: an AF_UNIX datagram socket bound at `path`.
    final class NotifySocket {
        let path: String
        let descriptor: Int32

        init(path: String) throws {
            self.path = path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        /// The next datagram, or nil when none arrives within `timeout`.
        func receive(timeout: Duration) -> String? {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(timeout.components.seconds * 1000)
            guard poll(&entry, 1, milliseconds) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
        }
    }

    static func get(_ url: URL) async -> (Int, Data) {
        guard let (data, response) = try? await URLSession.shared.data(from: url) else { return (0, Data()) }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func theInstalledBinaryServesWithTheInstalledConfigurationAndTellsSystemdItIsReady() async throws {
        let root = URL(fileURLWithPath: "/tmp/routereg-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let destdir = root.appendingPathComponent("destdir").path

        let installed = try await Spawn(
            "/bin/bash",
            [Self.repository.appendingPathComponent("scripts/install").path, BinaryRunner.executable!.path],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "DESTDIR": destdir, "PREFIX": "/usr/local"]
        ).run(timeout: .seconds(60))
        #expect(installed.succeeded, "\(installed.output)")

        // The files, where packagers and operators look for them.
        let binary = destdir + "/usr/local/bin/routereg"
        let config = destdir + "/etc/routereg/routereg.conf"
        let unitPath = destdir + "/usr/local/lib/systemd/system/routereg.service"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        for path in [
            config, unitPath, destdir + "/usr/local/lib/sysusers.d/routereg.conf",
            destdir + "/etc/nginx/sites-available/routereg.conf",
            destdir + "/usr/local/share/doc/routereg/DEPLOYMENT.md",
        ] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) not installed")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the settings may hold a database password")
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/local/bin/routereg serve --config /etc/routereg/routereg.conf\n"))
        for line in [
            "Type=notify", "User=routereg", "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes",
            "Restart=on-failure", "StateDirectory=routereg",
        ] {
            #expect(unit.contains("\n\(line)\n"), "\(line) missing from the unit")
        }
        #expect(
            unit.range(of: "@[A-Z]+@", options: .regularExpression) == nil,
            "an unfilled placeholder is left in the unit")
        #expect(
            try String(contentsOfFile: config, encoding: .utf8).contains("\ndata-dir = /var/lib/routereg\n"),
            "the settings point the data directory at the unit's StateDirectory")

        // `systemd-analyze verify`, where it exists, on the unit as installed but for the binary's path (the
        // staged one: verify checks that ExecStart is executable). Warnings (unknown keys) fail the test too.
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if let analyze {
            let staged = root.appendingPathComponent("routereg.service").path
            try unit.replacingOccurrences(of: "ExecStart=/usr/local/bin/", with: "ExecStart=\(destdir)/usr/local/bin/")
                .write(toFile: staged, atomically: true, encoding: .utf8)
            let verified = try await Spawn(analyze, ["verify", "--man=no", staged]).run(timeout: .seconds(60))
            #expect(verified.succeeded && verified.output.isEmpty, "systemd-analyze verify: \(verified.output)")
        }

        // An operator's edits: the database, a data directory, a request log file. The listen address stays
        // 127.0.0.1:8080 in the file and the command line overrides it, as flags win.
        let database = try TestPostgres.makeDatabase(suite: "install")
        defer { try? database.release() }
        let data = root.appendingPathComponent("state").path
        let accessLog = root.appendingPathComponent("access.log").path
        var settings = try String(contentsOfFile: config, encoding: .utf8)
        settings = settings.replacingOccurrences(of: "\ndata-dir = /var/lib/routereg\n", with: "\ndata-dir = \(data)\n")
        settings = settings.replacingOccurrences(
            of: "\n# access-log = /var/log/routereg/access.log\n", with: "\naccess-log = \(accessLog)\n")
        settings += "database-url = \(database.url)\n"
        try settings.write(toFile: config, atomically: true, encoding: .utf8)

        let notify = try NotifySocket(path: root.appendingPathComponent("notify").path)
        let token = "rr_" + String(repeating: "ab", count: 32)
        let output = root.appendingPathComponent("serve.out").path
        let server = try Spawn(
            binary, ["serve", "--config", config, "--listen", "127.0.0.1:0"],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": BinaryRunner.emptyHome, "NOTIFY_SOCKET": notify.path,
                "ROUTEREG_ADMIN_TOKEN": token,
            ],
            standardOutput: .file(output), standardError: .standardOutput
        ).start()
        defer { server.kill() }
        func log() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

        // READY=1 arrives once it listens; by then the log says where.
        let ready = notify.receive(timeout: .seconds(120))
        #expect(
            ready?.split(separator: "\n").contains("READY=1") == true, "no READY=1: \(ready ?? "nothing"); \(log())")
        guard let range = log().range(of: #"listening on http://[0-9.:]+"#, options: .regularExpression) else {
            Issue.record("no address printed: \(log())")
            return
        }
        let base = URL(string: String(log()[range].dropFirst("listening on ".count)))!
        #expect(base.port != 8080, "the command line's --listen wins over the file's")
        #expect(ready?.contains("STATUS=listening on 127.0.0.1:\(base.port!)") == true, "\(ready ?? "")")

        #expect(await Self.get(base.appendingPathComponent("readyz")).0 == 200)
        var request = URLRequest(url: base.appendingPathComponent("rpc"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            #"{"jsonrpc":"2.0","id":1,"method":"Apps.Create","params":{"app":{"id":"installed"}}}"#.utf8)
        let (created, _) = try await URLSession.shared.data(for: request)
        #expect(
            String(decoding: created, as: UTF8.self).contains(#""result""#),
            "\(String(decoding: created, as: UTF8.self))")
        #expect(await Self.get(base.appendingPathComponent("canopen/v1/installed/ios/1.0.json")).0 == 200)
        // The data directory is the file's (the snapshot is persisted there), the database the file's.
        var persisted = false
        for _ in 0..<100 where !persisted {
            persisted = FileManager.default.fileExists(atPath: data + "/snapshot.json")
            if !persisted { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(persisted, "no snapshot persisted in the file's data-dir: \(log())")
        #expect(!FileManager.default.fileExists(atPath: data + "/pgdata"), "an embedded cluster started: \(log())")

        server.signal(SIGTERM)
        #expect(notify.receive(timeout: .seconds(30))?.contains("STOPPING=1") == true)
        #expect(await server.exit(timeout: .seconds(60)) == 0, "\(log())")
        let lines = (try? String(contentsOfFile: accessLog, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.contains { $0.contains(#""path":"/rpc""#) }, "the file's access-log got no request line")
    }

    /// `make deb`'s packaging step (scripts/package-deb) on the built binary: the package holds what `make install`
    /// installs under /usr and /etc, marks the settings and the nginx file as conffiles, depends on libpq,
    /// libmicrohttpd and PostgreSQL, and its binary, unpacked, runs.
    @Test func theDebianPackageHoldsTheInstalledFiles() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb") else { return }
        let output = URL(fileURLWithPath: "/tmp/routereg-deb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let packaged = try await Spawn(
            "/bin/bash",
            [
                Self.repository.appendingPathComponent("scripts/package-deb").path, BinaryRunner.executable!.path,
                output.path,
            ],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
        ).run(timeout: .seconds(120))
        #expect(packaged.succeeded, "\(packaged.output)")
        let deb = packaged.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), "\(packaged.output)")

        let contents = try await Spawn("/usr/bin/dpkg-deb", ["--contents", deb]).run(timeout: .seconds(60))
        for path in [
            "./usr/bin/routereg", "./usr/lib/systemd/system/routereg.service", "./usr/lib/sysusers.d/routereg.conf",
            "./etc/routereg/routereg.conf", "./etc/nginx/sites-available/routereg.conf",
        ] {
            #expect(contents.standardOutput.contains(" \(path)\n"), "\(path) is not in the package")
        }
        let unpacked = output.appendingPathComponent("root").path
        let extracted = try await Spawn("/usr/bin/dpkg-deb", ["--raw-extract", deb, unpacked]).run(
            timeout: .seconds(60))
        #expect(extracted.succeeded, "\(extracted.output)")
        let conffiles = try String(contentsOfFile: unpacked + "/DEBIAN/conffiles", encoding: .utf8)
        #expect(conffiles == "/etc/routereg/routereg.conf\n/etc/nginx/sites-available/routereg.conf\n")
        let control = try String(contentsOfFile: unpacked + "/DEBIAN/control", encoding: .utf8)
        #expect(control.contains("\nDepends: libpq5, libmicrohttpd12, libcurl4, libqrencode4, libpng16-16, postgresql\n"), "\(control)")
        let unit = try String(contentsOfFile: unpacked + "/usr/lib/systemd/system/routereg.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/routereg serve --config /etc/routereg/routereg.conf\n"))
        let version = try await Spawn(unpacked + "/usr/bin/routereg", ["version"]).run(timeout: .seconds(30))
        #expect(version.standardOutput.hasPrefix("routereg "), "\(version.output)")
        #expect(
            control.contains(
                "\nVersion: \(version.standardOutput.dropFirst("routereg ".count).trimmingCharacters(in: .whitespacesAndNewlines))\n"
            ))
    }
}
