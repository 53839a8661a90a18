import Foundation

/// Which routes one of our generated AASA revisions claims, read back from the comment `AASAGenerator` writes
/// on each rule (`"route {id}"`). Only the generator knows that format, so this reader lives beside it: the
/// server answers `DeliveryStatus.claimedRoutes` from it, and no client parses comments.
public struct AASARouteClaims: Sendable, Hashable {
    /// One `details` entry: the app IDs it names and the routes its opening rules come from, in order.
    public struct Detail: Sendable, Hashable {
        public var appIDs: [String]
        public var routes: [String]

        public init(appIDs: [String], routes: [String]) {
            self.appIDs = appIDs
            self.routes = routes
        }
    }

    public var details: [Detail]

    public init(details: [Detail]) { self.details = details }

    /// The claims of a generated document's bytes; none for bytes that are not an AASA (exclusions and the
    /// fallback marker claim nothing).
    public init(document bytes: Data) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: bytes) else {
            self.init(details: [])
            return
        }
        self.init(document: value)
    }

    /// The claims of a generated document.
    public init(document: JSONValue) {
        guard case .object(let root) = document, case .object(let applinks)? = root["applinks"],
            case .array(let entries)? = applinks["details"]
        else {
            self.init(details: [])
            return
        }
        let prefix = AASAGenerator.comment(route: "")
        var details: [Detail] = []
        for case .object(let entry) in entries {
            var ids: [String] = []
            if case .array(let list)? = entry["appIDs"] {
                for case .string(let id) in list { ids.append(id) }
            }
            if case .string(let id)? = entry["appID"], !ids.contains(id) { ids.append(id) }
            var routes: [String] = []
            var seen: Set<String> = []
            if case .array(let components)? = entry["components"] {
                for case .object(let component) in components {
                    if case .bool(true)? = component["exclude"] { continue }
                    guard case .string(let comment)? = component["comment"], comment.hasPrefix(prefix) else {
                        continue
                    }
                    let route = String(comment.dropFirst(prefix.count))
                    if seen.insert(route).inserted { routes.append(route) }
                }
            }
            details.append(Detail(appIDs: ids, routes: routes))
        }
        self.init(details: details)
    }

    /// The routes claimed for any of `appIDs`, in document order, each once.
    public func routes(for appIDs: some Sequence<String>) -> [String] {
        let wanted = Set(appIDs)
        var routes: [String] = []
        var seen: Set<String> = []
        for detail in details where detail.appIDs.contains(where: wanted.contains) {
            for route in detail.routes where seen.insert(route).inserted { routes.append(route) }
        }
        return routes
    }

    /// Every app ID the document names.
    public var appIDs: Set<String> { Set(details.flatMap(\.appIDs)) }
}
