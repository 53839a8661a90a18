import Foundation

/// Why a manifest was refused: the member at fault (`routes[3].sinse`) and what is wrong with it.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member's path in the file, `""` for the whole file.
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

extension Manifest {
    /// Reads a manifest strictly: a member the manifest does not have (a typo such as `sinse`) is an error
    /// naming its path, never silently dropped, and so is a route or domain given twice.
    ///
    /// Strictness is checked by encoding what was decoded and looking for every member of the input in it: a
    /// member the types did not read is one they did not know. This follows the model types as they are
    /// (`App`, `URLPattern`, …), so a field added to them is accepted here without a second list of names.
    public init(strictJSON data: Data) throws(ManifestError) {
        let input: JSONValue
        do { input = try JSONValue(json: data) } catch {
            throw ManifestError(path: "", reason: "not JSON (\(Self.reason(error)))")
        }
        let manifest: Manifest
        do { manifest = try JSONDecoder().decode(Manifest.self, from: data) } catch let error as DecodingError {
            throw Self.misspelling(error, in: input) ?? Self.manifestError(error)
        } catch { throw ManifestError(path: "", reason: Self.reason(error)) }
        let echo: JSONValue
        do { echo = try JSONValue(encoding: manifest) } catch {
            throw ManifestError(path: "", reason: Self.reason(error))
        }
        if let error = Self.unread(input, in: echo, at: "") { throw error }
        try manifest.checkUnique()
        self = manifest
    }

    /// The first member of `input` that `echo` lacks.
    static func unread(_ input: JSONValue, in echo: JSONValue, at path: String) -> ManifestError? {
        switch (input, echo) {
        case (.object(let members), .object(let known)):
            for key in members.keys.sorted() {
                let here = path.isEmpty ? key : "\(path).\(key)"
                guard let value = known[key] else {
                    let reason =
                        members[key] == .null ? "null is not allowed: leave the member out" : "unknown member"
                    return ManifestError(path: here, reason: reason)
                }
                if let error = unread(members[key]!, in: value, at: here) { return error }
            }
        case (.array(let items), .array(let known)):
            for (index, item) in items.enumerated() where index < known.count {
                if let error = unread(item, in: known[index], at: "\(path)[\(index)]") { return error }
            }
        default: break
        }
        return nil
    }

    /// A required member missing beside a member spelt almost like it (`sinse` for `since`) is a typo: named
    /// as the unknown member it is, rather than as the missing one.
    static func misspelling(_ error: DecodingError, in input: JSONValue) -> ManifestError? {
        guard case .keyNotFound(let key, let context) = error else { return nil }
        var value = input
        for step in context.codingPath {
            if let index = step.intValue, case .array(let items) = value, index < items.count {
                value = items[index]
            } else if let member = value[step.stringValue] {
                value = member
            } else {
                return nil
            }
        }
        guard case .object(let members) = value,
            let typo = members.keys.sorted().first(where: { distance($0, key.stringValue) <= 2 })
        else { return nil }
        let path = manifestError(.keyNotFound(key, context)).path.dropLast(key.stringValue.count)
        return ManifestError(path: path + typo, reason: "unknown member (did you mean \(key.stringValue)?)")
    }

    /// Levenshtein distance, for the short member names of a manifest.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    /// Routes and domains are keyed by id and host: one given twice is refused where it repeats.
    public func checkUnique() throws(ManifestError) {
        var routeIDs: [String: Int] = [:]
        for (index, route) in routes.enumerated() {
            if let first = routeIDs[route.id] {
                throw ManifestError(path: "routes[\(index)].id", reason: "\"\(route.id)\" is also routes[\(first)]")
            }
            routeIDs[route.id] = index
        }
        var hosts: [String: Int] = [:]
        for (index, domain) in domains.enumerated() {
            let key = domain.host.lowercased()
            if let first = hosts[key] {
                throw ManifestError(
                    path: "domains[\(index)].host", reason: "\"\(domain.host)\" is also domains[\(first)]")
            }
            hosts[key] = index
        }
    }

    /// The decoder's complaint as a path and a sentence.
    static func manifestError(_ error: DecodingError) -> ManifestError {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return ManifestError(path: path(context.codingPath + [key]), reason: "required member missing")
        case .typeMismatch(let type, let context):
            return ManifestError(path: path(context.codingPath), reason: "expected \(Self.kind(type))")
        case .valueNotFound(let type, let context):
            return ManifestError(path: path(context.codingPath), reason: "expected \(Self.kind(type)), not null")
        case .dataCorrupted(let context):
            return ManifestError(path: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return ManifestError(path: "", reason: "not a manifest")
        }
    }

    /// JSON's word for what a Swift type reads.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "unreadable"
    }
}
