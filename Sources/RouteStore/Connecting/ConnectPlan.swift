import CLibPQ
import Foundation

/// What a connection string asks libpq to connect to, split into one candidate per host, so that each can be
/// tried on its own socket under one deadline (`ConnectRace`).
///
/// libpq tries the hosts of a multi-host URL one after another and gives each `connect_timeout` (2 s at least),
/// which its asynchronous API does not even apply: a hung first host (a SIGSTOPped primary still completes the
/// TCP handshake) would hold the attempt until the caller's deadline, and the next host would never be tried.
/// Its name resolution is a blocking `getaddrinfo` inside the connect. So the plan names every host, resolves
/// names itself (`HostResolution`, bounded), and gives libpq one `hostaddr` per attempt.
struct ConnectPlan: Sendable {
    /// One host of the connection string, as libpq would try it.
    struct Host: Sendable, Equatable {
        /// The host name (kept for TLS verification and messages), an IP literal, or a Unix-socket directory;
        /// nil when the string names none and libpq's default applies.
        var name: String?
        /// An address given in the string itself (`hostaddr`), which needs no resolution.
        var address: String?
        var port: String?

        /// Whether libpq would resolve `name` (a host name, not an address, a socket directory or the default).
        var needsResolution: Bool {
            guard address == nil, let name, !name.isEmpty, !name.hasPrefix("/"), !name.hasPrefix("@") else {
                return false
            }
            return !HostResolution.isAddressLiteral(name)
        }
    }

    /// Every option the string sets except the host list, in libpq's keywords.
    let options: [(String, String)]
    let hosts: [Host]
    /// `target_session_attrs` as given (`any` when absent).
    let targetSessionAttributes: String
    /// `connect_timeout` as given in the string, which bounds the whole race when it is shorter.
    let connectTimeoutSeconds: Int?

    /// Parses `conninfo` (a URI or `key=value` string). Hosts, addresses and ports missing from it come from
    /// libpq's defaults (the `PG*` environment variables), as a plain connect would take them.
    init(conninfo: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(conninfo, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            throw StoreError(.connectionFailed, detail: "invalid connection string: \(message)")
        }
        defer { PQconninfoFree(parsed) }
        let given = Self.values(of: parsed)
        var defaults: [String: String] = [:]
        if let pointer = PQconndefaults() {
            defaults = Self.values(of: pointer)
            PQconninfoFree(pointer)
        }
        func value(_ keyword: String) -> String? { given[keyword] ?? defaults[keyword] }

        options = Self.keywords(of: parsed).compactMap { keyword in
            guard !["host", "hostaddr", "port"].contains(keyword), let value = given[keyword] else { return nil }
            return (keyword, value)
        }
        if given["service"] != nil && given["host"] == nil && given["hostaddr"] == nil {
            // A service file may name the hosts; libpq reads it, so it keeps choosing them.
            hosts = [Host(name: nil, address: nil, port: given["port"])]
        } else {
            hosts = Self.hosts(names: value("host"), addresses: value("hostaddr"), ports: value("port"))
        }
        targetSessionAttributes = value("target_session_attrs") ?? "any"
        connectTimeoutSeconds = value("connect_timeout").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 > 0 ? max(2, $0) : nil }
    }

    /// libpq's pairing of the comma-separated `host`, `hostaddr` and `port` lists: one port for every host,
    /// or one per host.
    static func hosts(names: String?, addresses: String?, ports: String?) -> [Host] {
        func split(_ list: String?) -> [String]? {
            guard let list, !list.isEmpty else { return nil }
            return list.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let names = split(names)
        let addresses = split(addresses)
        let ports = split(ports)
        let count = max(names?.count ?? 0, addresses?.count ?? 0, 1)
        return (0..<count).map { index in
            func item(_ list: [String]?) -> String? {
                guard let list else { return nil }
                let item = list.count == 1 ? list[0] : (index < list.count ? list[index] : "")
                return item.isEmpty ? nil : item
            }
            return Host(name: item(names), address: item(addresses), port: item(ports))
        }
    }

    private static func values(of options: UnsafeMutablePointer<PQconninfoOption>) -> [String: String] {
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    private static func keywords(of options: UnsafeMutablePointer<PQconninfoOption>) -> [String] {
        var keywords: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            keywords.append(String(cString: keyword))
            option += 1
        }
        return keywords
    }
}
