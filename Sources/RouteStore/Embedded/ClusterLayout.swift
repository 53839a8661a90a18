import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where one embedded cluster's files go, decided once per start and created with the right owners.
///
/// In place: `<data>/pgdata`, `<data>/socket`, `<data>/postgres.log`. As root, the server runs as `postgres`,
/// which must be able to walk down to the data directory; when it cannot (a checkout under /root), the cluster
/// moves to `/var/tmp/routereg-<hash>/` and `<data>/pgdata` becomes a symlink to it, so the next start (and a
/// curious operator) finds it. A socket path longer than the kernel allows moves to `/tmp/routereg-<hash>`.
struct ClusterLayout: Sendable {
    /// The data directory, absolute.
    var dataDirectory: String
    /// The real cluster directory handed to initdb/pg_ctl (never a symlink the server user may not follow).
    var clusterDirectory: String
    /// Where the server puts its Unix socket.
    var socketDirectory: String
    /// The file pg_ctl appends the server log to.
    var logFile: String
    /// The account the server runs as, when it differs from ours (running as root).
    var serverAccount: ServerAccount?

    /// The system user a root process hands the server to, with its ids for chown.
    struct ServerAccount: Sendable, Hashable {
        var name: String
        var uid: uid_t
        var gid: gid_t
    }

    /// The longest Unix socket path the kernel accepts (sun_path is 108 bytes including the NUL).
    static let maximumSocketPathBytes = 107

    /// Works out the layout for `dataDirectory` and creates every directory and the log file it needs.
    static func prepare(
        dataDirectory: String, port: Int, notice: @Sendable (String) -> Void
    ) throws -> ClusterLayout {
        let data = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        let account = geteuid() == 0 ? try serverAccount() : nil
        try makeDirectory(data, mode: account == nil ? 0o700 : 0o711)
        if let account { try grantSearch(data, to: account) }

        let link = "\(data)/pgdata"
        let relocatedBase = "/var/tmp/routereg-\(stableHash(data))"
        var base = data
        var cluster = link
        if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: link) {
            if destination == "\(relocatedBase)/pgdata" {
                base = relocatedBase  // Relocated by an earlier start.
            } else {
                // The operator's own link (another disk, say): the cluster is there, socket and log stay here.
                cluster = URL(fileURLWithPath: destination, relativeTo: URL(fileURLWithPath: data + "/")).path
            }
        } else if let account, !(try canTraverse(data, as: account)) {
            if FileManager.default.fileExists(atPath: "\(link)/PG_VERSION") {
                throw EmbeddedPostgresError(
                    .directoryUnusable,
                    "the \(account.name) user cannot reach \(data), which holds a cluster; "
                        + "make every parent directory searchable (chmod o+x) or move the data directory")
            }
            base = relocatedBase
            try makePrivateDirectory(base, owner: account)
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: "\(data)/postgres.log")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(base)/pgdata")
            try FileManager.default.createSymbolicLink(
                atPath: "\(data)/postgres.log", withDestinationPath: "\(base)/postgres.log")
            notice(
                "embedded PostgreSQL: the \(account.name) user cannot reach \(data), "
                    + "so the cluster lives in \(base) (linked from \(link))")
        }
        if base != data { cluster = "\(base)/pgdata" }

        var socket = "\(base)/socket"
        if "\(socket)/.s.PGSQL.\(port)".utf8.count > maximumSocketPathBytes {
            socket = "/tmp/routereg-\(stableHash(data))"
        }
        if base != data { try makePrivateDirectory(base, owner: account) }
        try makePrivateDirectory(cluster, owner: account)
        try makePrivateDirectory(socket, owner: account)
        // The server reports its working directory as the real path: compare processes against that.
        guard let resolved = realpath(cluster, nil) else {
            throw EmbeddedPostgresError(.directoryUnusable, "cannot resolve \(cluster)")
        }
        defer { free(resolved) }
        let clusterPath = String(cString: resolved)
        let log = "\(base)/postgres.log"
        if !FileManager.default.fileExists(atPath: log),
            !FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600])
        {
            throw EmbeddedPostgresError(.directoryUnusable, "cannot create \(log)")
        }
        if let account { try changeOwner(log, to: account) }
        return ClusterLayout(
            dataDirectory: data, clusterDirectory: clusterPath, socketDirectory: socket, logFile: log,
            serverAccount: account)
    }

    /// The `postgres` system user; initdb and postgres refuse to run as root.
    static func serverAccount() throws -> ServerAccount {
        guard let entry = getpwnam("postgres") else {
            throw EmbeddedPostgresError(
                .serverUserUnavailable,
                "running as root needs the `postgres` system user (installed with the postgresql package)")
        }
        return ServerAccount(name: "postgres", uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    /// Whether `account` can search every directory down to `path`, asked of the kernel as that user.
    private static func canTraverse(_ path: String, as account: ServerAccount) throws -> Bool {
        try ChildProcess(executable: "/usr/bin/test", arguments: ["-x", path], user: account.name).run().succeeded
    }

    /// A data directory of our own made by `mktemp -d` (mode 700) under reachable parents: rather than
    /// relocating the cluster (which then outlives the directory when a script deletes it), let the server's
    /// user search it (o+x: it still cannot list it).
    private static func grantSearch(_ data: String, to account: ServerAccount) throws {
        var info = stat()
        guard lstat(data, &info) == 0, info.st_uid == geteuid(), info.st_mode & S_IXOTH == 0,
            !(try canTraverse(data, as: account)),
            try canTraverse(URL(fileURLWithPath: data).deletingLastPathComponent().path, as: account)
        else { return }
        _ = chmod(data, (info.st_mode & 0o7777) | S_IXOTH)
    }

    /// Creates the data directory if missing. An existing one is left as the operator made it (it may be a
    /// symlink, or have a mode of their choosing).
    private static func makeDirectory(_ path: String, mode: Int) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw EmbeddedPostgresError(.directoryUnusable, "\(path) exists and is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        } catch {
            throw EmbeddedPostgresError(.directoryUnusable, "cannot create \(path): \(error.localizedDescription)")
        }
    }

    /// Creates, or checks, a directory only the server's user may use (mode 700). Names under /tmp and
    /// /var/tmp are predictable, so an existing one must be a real directory (not a symlink) belonging to
    /// us or the server's user: anything else could make root hand a foreign directory to `postgres`.
    private static func makePrivateDirectory(_ path: String, owner: ServerAccount?) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw EmbeddedPostgresError(.directoryUnusable, "\(path) exists and is not a directory")
            }
            guard info.st_uid == geteuid() || info.st_uid == owner?.uid else {
                throw EmbeddedPostgresError(.directoryUnusable, "\(path) belongs to another user")
            }
        } else if mkdir(path, 0o700) != 0 {
            throw EmbeddedPostgresError(
                .directoryUnusable, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        if let owner { try changeOwner(path, to: owner) }
        guard chmod(path, 0o700) == 0 else {
            throw EmbeddedPostgresError(.directoryUnusable, "cannot make \(path) private")
        }
    }

    private static func changeOwner(_ path: String, to account: ServerAccount) throws {
        guard lchown(path, account.uid, account.gid) == 0 else {
            throw EmbeddedPostgresError(
                .directoryUnusable, "cannot give \(path) to \(account.name): \(String(cString: strerror(errno)))")
        }
    }
}
