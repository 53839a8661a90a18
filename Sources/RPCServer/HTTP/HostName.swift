/// The host a request was sent to, normalized from its `Host` header so that documents are looked up by
/// one spelling: lower-cased, port removed, trailing dot removed, IPv6 literal without brackets.
enum HostName {
    static func normalize(_ header: String?) -> String {
        guard var host = header?.trimmingSpaces, !host.isEmpty else { return "" }
        if host.hasPrefix("[") {
            // IPv6 literal: `[::1]:8080` -> `::1`.
            guard let close = host.firstIndex(of: "]") else { return "" }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.lowercased()
    }
}
