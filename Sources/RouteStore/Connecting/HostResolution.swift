import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A host name resolved on a thread of its own, so the caller waits for it no longer than its deadline.
///
/// `getaddrinfo` has no timeout of its own (the resolver's is seconds per server and attempt, from
/// resolv.conf) and libpq calls it blocking inside its connect. A resolution the caller gave up on finishes on
/// its thread and is dropped.
final class HostResolution: @unchecked Sendable {
    // @unchecked: `outcome` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var outcome: Result<[String], StoreError>?

    /// Starts resolving `name` for TCP.
    init(name: String) {
        let thread = Thread { [self] in
            let result = Self.resolve(name)
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "routereg-resolve"
        thread.start()
    }

    /// The addresses, an error, or nil while resolution is still going on.
    var result: Result<[String], StoreError>? {
        condition.lock()
        defer { condition.unlock() }
        return outcome
    }

    /// Waits for the outcome until `deadline`; nil when it did not come in time.
    func wait(until deadline: ContinuousClock.Instant) -> Result<[String], StoreError>? {
        let wakeAt = Date().addingTimeInterval(max(0, ContinuousClock.now.duration(to: deadline).seconds))
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil && condition.wait(until: wakeAt) {}
        return outcome
    }

    /// Whether `text` is an IPv4 or IPv6 address literal (which libpq does not resolve).
    static func isAddressLiteral(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// `getaddrinfo` for a stream socket: every address, in the resolver's order, without duplicates.
    private static func resolve(_ name: String) -> Result<[String], StoreError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(StoreError(.connectionFailed, detail: "could not resolve host \"\(name)\": \(reason)"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0,
                NI_NUMERICHOST) == 0
            {
                let address = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                if !addresses.contains(address) { addresses.append(address) }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(StoreError(.connectionFailed, detail: "host \"\(name)\" has no address"))
        }
        return .success(addresses)
    }
}
