import Foundation

/// Which server to talk to and with which token, from (first wins) `--server`, `ROUTEREG_SERVER`/
/// `ROUTEREG_TOKEN`, the config file `~/.config/routereg/config.json` (`{"server", "token"}`), and the
/// default `http://127.0.0.1:8080`.
struct ClientSettings: Sendable, Equatable {
    var server: URL
    var token: String?

    static let defaultServer = "http://127.0.0.1:8080"

    /// Resolves the settings. The config file lives at `$ROUTEREG_CONFIG` when set, else under
    /// `$XDG_CONFIG_HOME` or `~/.config`; a missing file is fine, a malformed one is an error.
    static func resolve(serverFlag: String?, environment: [String: String]) throws(UsageError) -> ClientSettings {
        let file = try ConfigFile.load(environment: environment)
        let serverText =
            serverFlag ?? nonEmpty(environment["ROUTEREG_SERVER"]) ?? nonEmpty(file?.server) ?? defaultServer
        let source =
            serverFlag != nil ? "--server" : environment["ROUTEREG_SERVER"] != nil ? "ROUTEREG_SERVER" : "server"
        guard let url = URL(string: serverText), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw UsageError("\(source): \"\(serverText)\" is not an http(s) URL like http://127.0.0.1:8080")
        }
        let token = nonEmpty(environment["ROUTEREG_TOKEN"]) ?? nonEmpty(file?.token)
        return ClientSettings(server: url, token: token)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

/// `~/.config/routereg/config.json`.
struct ConfigFile: Codable, Sendable, Equatable {
    var server: String?
    var token: String?

    /// The file's location for `environment`.
    static func path(environment: [String: String]) -> String? {
        if let explicit = environment["ROUTEREG_CONFIG"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/routereg/config.json" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/routereg/config.json"
    }

    /// The parsed file, nil when there is none.
    static func load(environment: [String: String]) throws(UsageError) -> ConfigFile? {
        guard let path = path(environment: environment), FileManager.default.fileExists(atPath: path) else {
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("config file \(path): cannot be read")
        }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch {
            throw UsageError("config file \(path): expected {\"server\": \"...\", \"token\": \"...\"}")
        }
    }
}
