import Foundation
import Testing

@testable import routereg

@Suite("Server and token settings")
struct ClientSettingsTests {
    /// A config file in a fresh directory, removed by the caller.
    func configFile(_ json: String) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routereg-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("config.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return (path, directory)
    }

    @Test func defaultsToLocalhostWithoutToken() throws {
        let settings = try ClientSettings.resolve(serverFlag: nil, environment: ["HOME": "/nonexistent"])
        #expect(settings == ClientSettings(server: URL(string: "http://127.0.0.1:8080")!, token: nil))
    }

    @Test func flagBeatsEnvironmentBeatsConfigFile() throws {
        let (path, directory) = try configFile(#"{"server": "http://config:1", "token": "from-file"}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fileOnly = try ClientSettings.resolve(serverFlag: nil, environment: ["ROUTEREG_CONFIG": path])
        #expect(fileOnly == ClientSettings(server: URL(string: "http://config:1")!, token: "from-file"))
        let environment = ["ROUTEREG_CONFIG": path, "ROUTEREG_SERVER": "http://env:2", "ROUTEREG_TOKEN": "from-env"]
        #expect(
            try ClientSettings.resolve(serverFlag: nil, environment: environment)
                == ClientSettings(server: URL(string: "http://env:2")!, token: "from-env"))
        #expect(
            try ClientSettings.resolve(serverFlag: "https://flag:3", environment: environment).server
                == URL(string: "https://flag:3")!)
    }

    @Test func configFileLivesUnderXDGOrHome() {
        #expect(ConfigFile.path(environment: ["HOME": "/home/r"]) == "/home/r/.config/routereg/config.json")
        #expect(
            ConfigFile.path(environment: ["HOME": "/home/r", "XDG_CONFIG_HOME": "/x"]) == "/x/routereg/config.json")
    }

    @Test func badServerURLsAndConfigFilesAreUsageErrors() throws {
        #expect(throws: UsageError("--server: \"ftp://x\" is not an http(s) URL like http://127.0.0.1:8080")) {
            try ClientSettings.resolve(serverFlag: "ftp://x", environment: [:])
        }
        let (path, directory) = try configFile("not json")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: UsageError("config file \(path): expected {\"server\": \"...\", \"token\": \"...\"}")) {
            try ClientSettings.resolve(serverFlag: nil, environment: ["ROUTEREG_CONFIG": path])
        }
    }
}
