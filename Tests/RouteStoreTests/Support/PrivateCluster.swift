import Foundation

/// A PostgreSQL cluster of one test's own, for tests that stop and start the server (which the shared
/// test cluster must never do). Listens on 127.0.0.1 on a free port; `destroy()` stops it and deletes it.
final class PrivateCluster: Sendable {
    let directory: String
    let port: Int
    private let binaries: String

    var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }

    init() throws {
        binaries = try PrivateCluster.findBinaries()
        directory = NSTemporaryDirectory() + "routestore-cluster-" + UUID().uuidString.prefix(8).lowercased()
        port = try PrivateCluster.freePort()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try run("/bin/chown", ["postgres", directory]) }
        try run(
            binaries + "/initdb",
            ["-D", directory + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "-N"],
            asPostgres: true)
        try start()
    }

    func start() throws {
        try run(
            binaries + "/pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
            ], asPostgres: true)
    }

    func stop() throws {
        try run(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"], asPostgres: true)
    }

    func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a tool and waits for it. posix_spawn + waitpid rather than Foundation's Process, whose
    /// `waitUntilExit` never returns once the server that `pg_ctl start` leaves behind holds its pipe.
    private func run(_ tool: String, _ arguments: [String], asPostgres: Bool = false) throws {
        // initdb refuses to run as root.
        let command = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] : [tool]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else {
            throw ClusterError(message: "cannot start \(command[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw ClusterError(message: "\(tool) \(arguments.joined(separator: " ")) failed with status \(status)")
        }
    }

    private static func findBinaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let version = versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }).first else {
            throw ClusterError(message: "no PostgreSQL under \(root)")
        }
        return "\(root)/\(version)/bin"
    }

    /// Asks the kernel for a free port on 127.0.0.1.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ClusterError(message: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct ClusterError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
