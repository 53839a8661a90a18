import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol (`sd_notify(3)`) without libsystemd: one datagram of `KEY=VALUE` lines to the
/// AF_UNIX socket named by `NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace). Under a unit with
/// `Type=notify`, `READY=1` is what makes `systemctl start` return and dependent units start. Without the
/// variable it does nothing.
enum SystemdNotify {
    /// Sends `state`; false when there is no socket to tell or the datagram could not be sent (the service
    /// manager then times the start out, which is the right outcome for a server that cannot say it is ready).
    @discardableResult
    static func send(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let socketName = environment["NOTIFY_SOCKET"], !socketName.isEmpty else { return false }
        var path = Array(socketName.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let terminator = path.first == 0 ? 0 : 1
        guard path.count + terminator <= capacity, path.first == 0 || path.first == UInt8(ascii: "/") else {
            return false
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
        }
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // The address length counts the path's bytes only: an abstract name is not NUL-terminated.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + terminator)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                message.withUnsafeBytes { bytes in
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), address, length)
                }
            }
        }
        return sent == message.count
    }
}
