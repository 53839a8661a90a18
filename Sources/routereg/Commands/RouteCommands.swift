import Foundation
import RouteCore

/// `routereg route add|list|show|update|move|switch-off|switch-on|remove`.
enum RouteCommands {
    static let app = PositionalSpec(name: "APP", summary: "the app ID")
    static let route = PositionalSpec(name: "ROUTE", summary: "the route ID")

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["route", "add"], summary: "add a route (last in evaluation order unless --before)",
            details: """
                PATTERN is an AASA path pattern: '*' matches any run of characters (also '/'), '?' exactly one.
                An open route is handled by the versions in its --since/--until range; publish a release to
                put it in the AASA.
                """,
            positionals: [
                app, PositionalSpec(name: "ID", summary: "a new route ID, e.g. lookalikes"),
                PositionalSpec(name: "PATTERN", summary: "path pattern, e.g. '/l/a/*'"),
            ],
            flags: RouteFlags.shared + [.value("before", "ROUTE", "insert before this route")],
            examples: [
                "route add badoo lookalikes '/l/a/*' --since ios=5.12.0 --since android=51200 --comment 'Lookalikes'",
                "route add badoo help '/help/*' --exclude --before profile",
            ],
            action: .run(add)),
        CommandSpec(
            ["route", "list"], summary: "list an app's routes in evaluation order", positionals: [app],
            flags: CommonFlags.paging, examples: ["route list badoo"], action: .run(list)),
        CommandSpec(
            ["route", "show"], summary: "show one route", positionals: [app, route],
            examples: ["route show badoo lookalikes"], action: .run(show)),
        CommandSpec(
            ["route", "update"], summary: "change a route (only what the flags say; kill switches are kept)",
            positionals: [app, route], flags: RouteFlags.shared + RouteFlags.updateOnly + [CommonFlags.etag],
            examples: [
                "route update badoo lookalikes --until ios=6.0", "route update badoo lookalikes --until ios=none",
            ],
            action: .run(update)),
        CommandSpec(
            ["route", "move"], summary: "change a route's place in the evaluation order", positionals: [app, route],
            flags: [
                .value("before", "ROUTE", "move it just before this route"),
                .value("after", "ROUTE", "move it just after this route"),
                .bool("first", "move it to the top"), .bool("last", "move it to the bottom"),
            ],
            examples: ["route move badoo help --before profile"], action: .run(move)),
        CommandSpec(
            ["route", "switch-off"], summary: "kill switch: versions stop opening the route's links in the app",
            positionals: [
                app, route, PositionalSpec(name: "PLATFORM", summary: "ios or android"),
                PositionalSpec(name: "VERSION", summary: "the versions to switch off", variadic: true),
            ],
            flags: [.value("reason", "TEXT", "why, for the audit log and people")],
            examples: ["route switch-off badoo lookalikes ios 5.12.0 --reason 'crash in 5.12.0'"],
            action: .run(switchOff)),
        CommandSpec(
            ["route", "switch-on"], summary: "undo a kill switch",
            positionals: [
                app, route, PositionalSpec(name: "PLATFORM", summary: "ios or android"),
                PositionalSpec(name: "VERSION", summary: "the versions to switch on again", variadic: true),
            ],
            examples: ["route switch-on badoo lookalikes ios 5.12.0"], action: .run(switchOn)),
        CommandSpec(
            ["route", "remove"], summary: "delete a route", positionals: [app, route], flags: [CommonFlags.etag],
            examples: ["route remove badoo lookalikes"], action: .run(remove)),
    ]

    static func add(_ run: Invocation) throws {
        let route = try RouteFlags.newRoute(id: run.argument(1), path: run.argument(2), run.arguments)
        let (created, raw) = try run.call(
            API.RoutesCreate.self,
            WriteRequest(.init(app: run.argument(0), route: route, before: run.arguments.value("before"))))
        if run.json { return run.printJSON(raw) }
        run.print("Added \(created.meta.name) at position \(created.position + 1).")
        run.print(RouteText.detail(created, ago: run.ago))
    }

    static func list(_ run: Invocation) throws {
        let page = try run.page()
        let (result, raw) = try run.call(
            API.RoutesList.self, .init(.init(app: run.argument(0)), page))
        if run.json { return run.printJSON(raw) }
        if result.items.isEmpty {
            return run.print("No routes for \(run.argument(0)) yet. Add one with 'routereg route add'.")
        }
        run.print(RouteText.table(result.items, style: run.style))
        run.printNextPage(result.nextPageToken)
    }

    static func show(_ run: Invocation) throws {
        let (route, raw) = try run.call(API.RoutesGet.self, .init(app: run.argument(0), route: run.argument(1)))
        if run.json { return run.printJSON(raw) }
        run.print(RouteText.detail(route, ago: run.ago))
    }

    static func update(_ run: Invocation) throws {
        let (current, _) = try run.call(API.RoutesGet.self, .init(app: run.argument(0), route: run.argument(1)))
        var route = current.route
        try RouteFlags.apply(run.arguments, to: &route)
        let etag = run.arguments.value("etag") ?? current.meta.etag
        let (updated, raw) = try run.call(
            API.RoutesUpdate.self, WriteRequest(.init(app: run.argument(0), route: route, etag: etag)))
        if run.json { return run.printJSON(raw) }
        run.print("Updated \(updated.meta.name).")
        run.print(RouteText.detail(updated, ago: run.ago))
    }

    static func move(_ run: Invocation) throws {
        let anchors = ["before", "after", "first", "last"].filter { run.arguments.has($0) }
        guard anchors.count == 1 else {
            throw UsageError("say where with exactly one of --before ROUTE, --after ROUTE, --first, --last")
        }
        let app = run.argument(0)
        let moving = run.argument(1)
        var order = try allRoutes(app, run).map(\.route.id)
        guard let from = order.firstIndex(of: moving) else {
            throw RegistryError.notFound(.route(app: app, id: moving))
        }
        order.remove(at: from)
        switch anchors[0] {
        case "first": order.insert(moving, at: 0)
        case "last": order.append(moving)
        default:
            let anchor = run.arguments.value(anchors[0])!
            guard let index = order.firstIndex(of: anchor) else {
                throw UsageError("--\(anchors[0]): \(app) has no other route \"\(anchor)\"")
            }
            order.insert(moving, at: anchors[0] == "before" ? index : index + 1)
        }
        let (result, raw) = try run.call(API.RoutesReorder.self, WriteRequest(.init(app: app, order: order)))
        if run.json { return run.printJSON(raw) }
        run.print("Moved \(moving). Evaluation order of \(app):")
        run.print(RouteText.table(result.routes, style: run.style))
    }

    static func switchOff(_ run: Invocation) throws { try toggle(run, off: true) }

    static func switchOn(_ run: Invocation) throws { try toggle(run, off: false) }

    private static func toggle(_ run: Invocation, off: Bool) throws {
        let platform = try ArgumentValues.platform(run.argument(2))
        var versions: [Version] = []
        for text in run.arguments.positionals.dropFirst(3) { versions.append(try ArgumentValues.version(text)) }
        let (app, id) = (run.argument(0), run.argument(1))
        let (route, raw) =
            try off
            ? run.call(
                API.RoutesSwitchOff.self,
                WriteRequest(
                    .init(
                        app: app, route: id, platform: platform, versions: versions,
                        reason: run.arguments.value("reason"))))
            : run.call(
                API.RoutesSwitchOn.self,
                WriteRequest(.init(app: app, route: id, platform: platform, versions: versions)))
        if run.json { return run.printJSON(raw) }
        let list = versions.map(\.description).joined(separator: ", ")
        run.print("Switched \(off ? "off" : "on") \(route.meta.name) for \(platform.rawValue) \(list).")
        let state = RouteText.switchedOff(route.route)
        run.print("Switched off now: " + (state.isEmpty ? "none" : state))
    }

    static func remove(_ run: Invocation) throws {
        let (_, raw) = try run.call(
            API.RoutesDelete.self,
            WriteRequest(.init(app: run.argument(0), route: run.argument(1), etag: run.arguments.value("etag"))))
        if run.json { return run.printJSON(raw) }
        run.print("Removed \(ResourceName.route(app: run.argument(0), id: run.argument(1))).")
    }

    /// Every route of `app`, following pages.
    static func allRoutes(_ app: String, _ run: Invocation) throws -> [RouteResource] {
        var routes: [RouteResource] = []
        var token: String?
        repeat {
            let (page, _) = try run.call(
                API.RoutesList.self, .init(.init(app: app), PageRequest(pageSize: 1000, pageToken: token)))
            routes += page.items
            token = page.nextPageToken.isEmpty ? nil : page.nextPageToken
        } while token != nil
        return routes
    }
}
