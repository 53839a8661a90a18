import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listens on right now, found by binding port 0 and reading back what
/// the kernel chose. Someone may take it before we use it; callers retry on a bind failure.
public func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestPostgresError("cannot open a socket to find a free port") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw TestPostgresError("cannot bind 127.0.0.1:0 to find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
