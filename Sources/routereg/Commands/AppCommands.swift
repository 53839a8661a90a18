import Foundation
import JSONBytes
import RouteCore

/// `routereg app create|get|list|update|delete`.
enum AppCommands {
    static let appArgument = PositionalSpec(name: "APP", summary: "the app ID, e.g. badoo")

    /// Flags that describe an app, shared by create and update.
    static let appFlags: [FlagSpec] = [
        .value("display-name", "NAME", "a name for people"),
        .value("ios-app-id", "TEAMID.BUNDLE", "iOS app ID listed in the AASA", repeatable: true),
        .bool("webcredentials", "also list the iOS app IDs under webcredentials"),
        .value("app-clip", "TEAMID.BUNDLE", "App Clip app ID", repeatable: true),
        .value("app-store-id", "ID", "the numeric App Store id, for the store button of short links' landing pages"),
        .value(
            "app-store-provider-token", "PT",
            "App Store Connect provider token: store links then carry pt with their campaign (ct)"),
        .value("android-package", "PACKAGE", "Android application ID, e.g. com.badoo.mobile"),
        .value("android-fingerprint", "SHA256", "signing certificate fingerprint (AA:BB:...)", repeatable: true),
        .value("scheme", "SCHEME", "custom URL scheme the app answers, without ://", repeatable: true),
        .value("fallback-query-item", "NAME", "fallback marker query item (default ul_fallback)"),
        .value("fallback-value", "VALUE", "fallback marker value (default 1)"),
        .value("file", "FILE", "read the app as JSON (the API's App shape); flags override its fields"),
        .value(
            "hosts", "PATTERNS",
            "host patterns ('*.rt.example.com,rt.example.com') an app-scoped admin adds domains under; all-apps admins only"
        ),
        .bool(
            "share-names", "let the app hold IDs, a package or host patterns another app holds; all-apps admins only"),
    ]

    static let specs: [CommandSpec] = [
        CommandSpec(
            ["app", "create"], summary: "register an app", positionals: [appArgument], flags: appFlags,
            examples: [
                "app create badoo --display-name Badoo --ios-app-id ABCDE12345.com.badoo.Badoo --scheme badoo"
            ],
            action: .run(create)),
        CommandSpec(
            ["app", "get"], summary: "show an app", positionals: [appArgument], examples: ["app get badoo"],
            action: .run(get)),
        CommandSpec(
            ["app", "list"], summary: "list the apps", flags: CommonFlags.paging, examples: ["app list"],
            action: .run(list)),
        CommandSpec(
            ["app", "update"], summary: "change an app (only the fields given by flags)",
            positionals: [appArgument], flags: appFlags + [CommonFlags.etag],
            examples: [
                "app update badoo --android-package com.badoo.mobile --android-fingerprint AA:BB:...",
                "app update rt --hosts '*.rt.example.com,rt.example.com'",
            ],
            action: .run(update)),
        CommandSpec(
            ["app", "delete"], summary: "delete an app (refused while domains list it)", positionals: [appArgument],
            flags: [CommonFlags.etag], examples: ["app delete badoo"], action: .run(delete)),
    ]

    static func create(_ run: Invocation) throws {
        var app = App(id: run.argument(0))
        if let file = run.arguments.value("file") {
            app = try readJSON(App.self, file: file)
            app.id = run.argument(0)
        }
        try apply(run.arguments, to: &app)
        let (created, raw) = try run.call(
            API.AppsCreate.self, WriteRequest(.init(app: app, shareNames: shareNames(run.arguments))))
        if run.json { return run.printJSON(raw) }
        run.print("Created \(created.meta.name).")
        run.print(describe(created, run))
    }

    static func get(_ run: Invocation) throws {
        let (app, raw) = try run.call(API.AppsGet.self, .init(app: run.argument(0)))
        if run.json { return run.printJSON(raw) }
        run.print(describe(app, run))
    }

    static func list(_ run: Invocation) throws {
        let (page, raw) = try run.call(API.AppsList.self, try run.page())
        if run.json { return run.printJSON(raw) }
        if page.items.isEmpty { return run.print("No apps yet. Add one with 'routereg app create'.") }
        let rows = page.items.map { app in
            [
                app.value.id, app.value.displayName ?? "", app.value.ios?.appIds.joined(separator: ", ") ?? "",
                app.value.android?.packageName ?? "", app.value.schemes.joined(separator: ", "),
                run.ago(app.meta.updateTime ?? app.meta.createTime),
            ]
        }
        run.print(TextTable.render(rows, header: ["app", "name", "ios app ids", "android", "schemes", "updated"]))
        run.printNextPage(page.nextPageToken)
    }

    static func update(_ run: Invocation) throws {
        let (current, _) = try run.call(API.AppsGet.self, .init(app: run.argument(0)))
        var app = current.value
        if let file = run.arguments.value("file") {
            app = try readJSON(App.self, file: file)
            app.id = current.value.id
        }
        try apply(run.arguments, to: &app)
        let etag = run.arguments.value("etag") ?? current.meta.etag
        let (updated, raw) = try run.call(
            API.AppsUpdate.self, WriteRequest(.init(app: app, etag: etag, shareNames: shareNames(run.arguments))))
        if run.json { return run.printJSON(raw) }
        run.print("Updated \(updated.meta.name).")
        run.print(describe(updated, run))
    }

    static func delete(_ run: Invocation) throws {
        let (_, raw) = try run.call(
            API.AppsDelete.self, WriteRequest(.init(app: run.argument(0), etag: run.arguments.value("etag"))))
        if run.json { return run.printJSON(raw) }
        run.print("Deleted \(ResourceName.app(run.argument(0))).")
    }

    /// Applies the app flags that were given; the others leave the field as it is.
    static func apply(_ arguments: ParsedArguments, to app: inout App) throws(UsageError) {
        if let name = arguments.value("display-name") { app.displayName = name }
        let appIDs = arguments.values("ios-app-id")
        if !appIDs.isEmpty || arguments.has("webcredentials") || arguments.has("app-clip")
            || arguments.has("app-store-id") || arguments.has("app-store-provider-token")
        {
            var ios = app.ios ?? IOSConfig(appIds: [])
            if !appIDs.isEmpty { ios.appIds = appIDs }
            if let id = arguments.value("app-store-id") { ios.appStoreId = id }
            if let token = arguments.value("app-store-provider-token") { ios.appStoreProviderToken = token }
            if arguments.has("webcredentials") { ios.webcredentials = arguments.bool("webcredentials") }
            if arguments.has("app-clip") { ios.appClips = arguments.values("app-clip") }
            app.ios = ios
        }
        let fingerprints = arguments.values("android-fingerprint")
        if let package = arguments.value("android-package") {
            app.android = AndroidConfig(
                packageName: package,
                sha256CertFingerprints: fingerprints.isEmpty
                    ? app.android?.sha256CertFingerprints ?? [] : fingerprints)
        } else if !fingerprints.isEmpty {
            guard var android = app.android else {
                throw UsageError("--android-fingerprint needs --android-package")
            }
            android.sha256CertFingerprints = fingerprints
            app.android = android
        }
        if arguments.has("scheme") { app.schemes = arguments.values("scheme") }
        if let item = arguments.value("fallback-query-item") { app.fallback.queryItem = item }
        if let value = arguments.value("fallback-value") { app.fallback.value = value }
        if let hosts = arguments.value("hosts") {
            app.hosts = hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
    }

    /// `--share-names` as the API's `shareNames` (left out when not given).
    static func shareNames(_ arguments: ParsedArguments) -> Bool? {
        arguments.bool("share-names") ? true : nil
    }

    /// The app as aligned `field  value` lines.
    static func describe(_ app: Resource<App>, _ run: Invocation) -> String {
        let value = app.value
        var rows: [[String]] = [["name", app.meta.name]]
        if let name = value.displayName { rows.append(["display name", name]) }
        if let ios = value.ios {
            rows.append(["ios app ids", ios.appIds.joined(separator: ", ")])
            if ios.webcredentials == true { rows.append(["webcredentials", "yes"]) }
            if let clips = ios.appClips, !clips.isEmpty { rows.append(["app clips", clips.joined(separator: ", ")]) }
        }
        if let android = value.android {
            rows.append(["android package", android.packageName])
            for fingerprint in android.sha256CertFingerprints { rows.append(["cert fingerprint", fingerprint]) }
        }
        if !value.schemes.isEmpty { rows.append(["schemes", value.schemes.joined(separator: ", ")]) }
        if let hosts = value.hosts, !hosts.isEmpty { rows.append(["host patterns", hosts.joined(separator: ", ")]) }
        rows.append(["fallback marker", "\(value.fallback.queryItem)=\(value.fallback.value)"])
        rows.append(["created", run.ago(app.meta.createTime)])
        if let updated = app.meta.updateTime { rows.append(["updated", run.ago(updated)]) }
        rows.append(["etag", app.meta.etag])
        return TextTable.render(rows)
    }
}

/// Reads a JSON file into `type`, with a message that says which file and what was expected.
func readJSON<T: Decodable>(_ type: T.Type, file: String) throws -> T {
    let data = try readStrictJSON(file: file)
    do {
        return try JSONDecoder().decode(T.self, from: data)
    } catch {
        throw CommandFailure("\(file): not a valid \(String(describing: T.self)) JSON document")
    }
}

/// The bytes of `file` ("-": standard input), which must be strict JSON: Foundation on Linux reads a
/// trailing comma that iOS and every other JSON reader refuse, so it is checked here first, with where and what.
func readStrictJSON(file: String) throws -> Data {
    let data = try readInput(file: file)
    do {
        try StrictJSON.validate(data)
    } catch {
        throw CommandFailure("\(file): not valid JSON: \(error)")
    }
    return data
}

/// The bytes of `file`, or of standard input for "-".
func readInput(file: String) throws -> Data {
    if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    guard let contents = FileManager.default.contents(atPath: file) else {
        throw CommandFailure("\(file): cannot be read")
    }
    return contents
}
