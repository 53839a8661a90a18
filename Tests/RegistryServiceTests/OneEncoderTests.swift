import Foundation
import RegistryTesting
import RouteCore
import Testing

@testable import RegistryAPI

/// `CanOpen.Check` and `CanOpen.GetTable` each have one encoder: the answer bytes of every path (a single
/// JSON-RPC call read flat or decoded, a batch member, the GET of a table) are the bytes that encoder writes
/// for the service's answer.
@Suite(.serialized) struct OneEncoderTests {
    private static func body(_ method: String, _ params: String, id: Int = 1) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    private static func result(_ bytes: [UInt8], id: Int = 1) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"result":"#.utf8) + bytes + [UInt8(ascii: "}")]
    }

    private func post(_ server: TestRegistryServer, _ text: String) async throws -> [UInt8] {
        Array(try await server.post(Data(text.utf8)).0)
    }

    @Test func everyCanOpenCheckAnswerComesFromDecisionJSON() async throws {
        let server = try TestRegistryServer(suite: "one_encoder_check")
        defer { server.shutdown() }
        try await seedBadoo(server)
        let urls = [
            "https://m.badoo.com/u/7", "https://m.badoo.com/l/a/42", "https://m.badoo.com/nothing?x=1",
            "https://m.badoo.com/u/\u{e9}t\u{e9}?q=\u{1F600}", "https://other.example/u/1", "badoo://offer/1",
            "https://m.badoo.com/u/7?ul_fallback=1",
        ]
        for version in ["5.11.0", "4.0"] {
            for url in urls {
                let input = API.CanOpenCheck.Input(
                    app: "badoo", platform: .ios, version: try Version(version), url: url)
                let expected = try DecisionJSON.encode(try server.service.check(input))
                let quoted = String(decoding: try JSONEncoder().encode(url), as: UTF8.self)
                let params = #"{"app":"badoo","platform":"ios","version":"\#(version)","url":\#(quoted)}"#
                // The same params with an escape the flat reader leaves to the decoder.
                let escaped = #"{"app":"b\u0061doo","platform":"ios","version":"\#(version)","url":\#(quoted)}"#
                let flat = Self.body("CanOpen.Check", params)
                let decoded = Self.body("CanOpen.Check", escaped, id: 2)
                #expect(try await post(server, flat) == Self.result(expected), "\(url)")
                #expect(try await post(server, decoded) == Self.result(expected, id: 2), "\(url)")
                let batch = try await post(server, "[\(flat),\(decoded)]")
                #expect(
                    batch == [UInt8(ascii: "[")] + Self.result(expected) + [UInt8(ascii: ",")]
                        + Self.result(expected, id: 2) + [UInt8(ascii: "]")], "\(url)")
            }
        }
    }

    /// `Matrix.Get`'s hand-written encoder writes what the codec's `JSONEncoder` writes, for every cell state,
    /// rows with and without `supportedSince`, and text that needs escaping.
    @Test func matrixJSONWritesWhatTheCodecWrites() throws {
        let codec = JSONEncoder()
        codec.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let versions = [try Version("4.0"), try Version("5.11.0"), try Version("5.12.1")]
        let states: [API.MatrixGet.Cell.State] = [.open, .fallback, .switchedOff, .excluded]
        let patterns = [
            URLPattern(path: "/u/*"), URLPattern(path: "/\u{e9}t\u{e9}/\"q\"/?*", caseSensitive: false),
        ]
        let rows = (0..<4).map { index in
            API.MatrixGet.Row(
                route: index == 3 ? "r\u{1F600}\\\"" : "r\(index)", pattern: patterns[index % 2],
                action: index == 2 ? .exclude : .open, supportedSince: index == 1 ? nil : versions[index % 3],
                cells: versions.enumerated().map { at, version in
                    API.MatrixGet.Cell(version: version, state: states[(index + at) % 4])
                })
        }
        for matrix in [
            API.MatrixGet.Output(app: "badoo", platform: .ios, versions: versions, routes: rows),
            API.MatrixGet.Output(app: "a\u{0001}b", platform: .android, versions: [], routes: []),
        ] {
            #expect(try MatrixJSON.encode(matrix) == Array(try codec.encode(matrix)))
        }
    }

    @Test func everyCanOpenGetTableAnswerComesFromCanOpenTableJSON() async throws {
        let server = try TestRegistryServer(suite: "one_encoder_table")
        defer { server.shutdown() }
        try await seedBadoo(server)
        for version in ["5.11.0", "4.0"] {
            let input = API.CanOpenGetTable.Input(app: "badoo", platform: .ios, version: try Version(version))
            let answer = CanOpenTableJSON.Answer(try server.service.canOpenTableJSON(input))
            let expected = try CanOpenTableJSON.encode(answer)
            let params = #"{"app":"badoo","platform":"ios","version":"\#(version)"}"#
            let single = Self.body("CanOpen.GetTable", params)
            #expect(try await post(server, single) == Self.result(expected))
            let batch = try await post(server, "[\(single),\(Self.body("CanOpen.GetTable", params, id: 2))]")
            #expect(
                batch == [UInt8(ascii: "[")] + Self.result(expected) + [UInt8(ascii: ",")]
                    + Self.result(expected, id: 2) + [UInt8(ascii: "]")])
            // The GET's body is the answer's `table`: the encoder's bytes are the file spliced in.
            let (file, response) = try await server.get("/canopen/v1/badoo/ios/\(version).json")
            #expect(response.statusCode == 200)
            let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
            let spliced =
                Array(#"{"etag":"#.utf8) + Array(try JSONEncoder().encode(etag))
                + Array(#","notModified":false,"table":"#.utf8) + Array(file) + [UInt8(ascii: "}")]
            #expect(spliced == expected)
            // The flat reader's 304 path (ifNoneMatch current) answers from the same encoder.
            let current = try CanOpenTableJSON.encode(
                CanOpenTableJSON.Answer(
                    try server.service.canOpenTableJSON(
                        API.CanOpenGetTable.Input(
                            app: "badoo", platform: .ios, version: try Version(version), ifNoneMatch: etag))))
            let quotedETag = String(decoding: try JSONEncoder().encode(etag), as: UTF8.self)
            let revalidate = Self.body(
                "CanOpen.GetTable",
                #"{"app":"badoo","platform":"ios","version":"\#(version)","ifNoneMatch":\#(quotedETag)}"#)
            #expect(try await post(server, revalidate) == Self.result(current))
            #expect(String(decoding: current, as: UTF8.self).contains(#""notModified":true"#))
        }
    }

    @Test func versionAnswersTheBuild() async throws {
        let server = try TestRegistryServer(suite: "version_route")
        defer { server.shutdown() }
        let (data, response) = try await server.get("/version")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["version": "unknown", "commit": "unknown"])
    }

    @Test func theCommitIsReadFromBesideTheExecutable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("routereg").path
        #expect(BuildInfo.commit(besideExecutable: binary) == "unknown")
        let commit = String(repeating: "3f", count: 20)
        try Data((commit + "\n").utf8).write(to: URL(fileURLWithPath: binary + ".commit"))
        #expect(BuildInfo.commit(besideExecutable: binary) == commit)
        try Data("not a commit".utf8).write(to: URL(fileURLWithPath: binary + ".commit"))
        #expect(BuildInfo.commit(besideExecutable: binary) == "unknown")
        #expect(
            String(decoding: BuildInfo(version: "0.1.0", commit: commit).json, as: UTF8.self)
                == #"{"commit":"\#(commit)","version":"0.1.0"}"#)
    }
}
