import Foundation

/// What must hold in a registry whatever happened to the server: checked through the API of a running
/// server, returned as a list of violations (empty when all hold).
///
/// - Every release's state is the `after` state of its latest audit entry, and every audit entry of a
///   release names one that exists: state changes and audit entries match one to one.
/// - Revision numbers per (host, kind) are exactly 1...N.
/// - No (host, kind) has more revisions caused by a method than there are audit entries of that method
///   (a revision without its audited write would be a torn transaction).
/// - The served file of each host has the bytes and ETag of its latest revision, and regenerating from the
///   database changes nothing (a preview of a no-op publish reports no changed document).
struct RegistryInvariants {
    let client: RegistryClient
    let app: String
    let hosts: [String]

    /// The audit log, oldest first.
    func auditEntries() async throws -> [[String: Any]] {
        try await client.all("Audit.List", [:], key: "entries").reversed()
    }

    func violations() async throws -> [String] {
        var found: [String] = []
        let audit = try await auditEntries()
        found += try await releaseViolations(audit: audit)
        for host in hosts {
            for kind in ["aasa", "assetlinks"] {
                found += try await revisionViolations(host: host, kind: kind, audit: audit)
            }
            found += try await servedFileViolations(host: host)
        }
        found += try await regenerationViolations()
        return found
    }

    private func releaseViolations(audit: [[String: Any]]) async throws -> [String] {
        var found: [String] = []
        let releases = try await client.all("Releases.List", ["app": app], key: "releases")
        var auditedState: [String: String] = [:]
        for entry in audit {
            guard let method = entry["method"] as? String, method.hasPrefix("Releases."),
                let resource = entry["resource"] as? String
            else { continue }
            guard let state = (entry["after"] as? [String: Any])?["state"] as? String else {
                found.append("audit entry \(method) \(resource) has no state after")
                continue
            }
            auditedState[resource] = state
        }
        let names = Set(releases.compactMap { $0["name"] as? String })
        for release in releases {
            let name = release["name"] as? String ?? "?"
            let state = release["state"] as? String ?? "?"
            if auditedState[name] != state {
                found.append("release \(name) is \(state) but its audit says \(auditedState[name] ?? "nothing")")
            }
        }
        for resource in auditedState.keys where !names.contains(resource) {
            found.append("audit names release \(resource), which does not exist")
        }
        return found
    }

    private func revisionViolations(host: String, kind: String, audit: [[String: Any]]) async throws -> [String] {
        var found: [String] = []
        let revisions = try await client.all(
            "Associations.ListRevisions", ["host": host, "kind": kind], key: "revisions")
        let numbers = revisions.compactMap { $0["revision"] as? Int }.sorted()
        if numbers != Array(1...max(1, numbers.count)) && !(numbers.isEmpty) {
            found.append("\(host) \(kind): revisions \(numbers) are not 1...\(numbers.count)")
        }
        var auditedMethods: [String: Int] = [:]
        for entry in audit { auditedMethods[entry["method"] as? String ?? "", default: 0] += 1 }
        var causedBy: [String: Int] = [:]
        for revision in revisions {
            let cause = revision["cause"] as? String ?? ""
            causedBy[String(cause.prefix { $0 != " " }), default: 0] += 1
        }
        for (method, count) in causedBy where count > auditedMethods[method, default: 0] {
            found.append(
                "\(host) \(kind): \(count) revisions caused by \(method), only \(auditedMethods[method, default: 0]) audited"
            )
        }
        return found
    }

    private func servedFileViolations(host: String) async throws -> [String] {
        let latest = try await client.call("Associations.Get", ["host": host])
        guard let revision = latest.object["result"] as? [String: Any] else {
            return ["\(host): Associations.Get failed: \(latest.object["error"] ?? "?")"]
        }
        let (body, response) = try await client.get("/.well-known/apple-app-site-association", host: host)
        var found: [String] = []
        if response.statusCode != 200 { found.append("\(host): GET answered \(response.statusCode)") }
        let served = try? JSONSerialization.jsonObject(with: body) as? NSDictionary
        let stored = revision["document"] as? NSDictionary
        if served == nil || served != stored {
            found.append("\(host): the served AASA differs from revision \(revision["revision"] ?? "?")")
        }
        let unquoted = CharacterSet(charactersIn: "\"W/")
        let etag = response.value(forHTTPHeaderField: "ETag")?.trimmingCharacters(in: unquoted)
        if let expected = (revision["etag"] as? String)?.trimmingCharacters(in: unquoted), etag != expected {
            found.append("\(host): served ETag \(etag ?? "none") is not the latest revision's \(expected)")
        }
        return found
    }

    /// A dry run of a publish that changes nothing (an already live version) must report no changed file.
    private func regenerationViolations() async throws -> [String] {
        let releases = try await client.all("Releases.List", ["app": app], key: "releases")
        guard let live = releases.first(where: { $0["state"] as? String == "live" }),
            let version = live["version"] as? String, let platform = live["platform"] as? String
        else { return [] }
        let preview = try await client.result(
            "Associations.Preview", ["app": app, "platform": platform, "version": version, "action": "publish"])
        let documents = preview["documents"] as? [[String: Any]] ?? []
        return documents.compactMap { document in
            (document["changed"] as? Bool) == false
                ? nil
                : "regenerating \(document["host"] ?? "?") \(document["kind"] ?? "?") differs from its latest revision "
                    + "(live \(platform) \(version); diff \(Self.text(document["diff"])))"
        }
    }

    private static func text(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
            return "none"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
