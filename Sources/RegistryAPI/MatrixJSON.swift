import Foundation
import JSONBytes
import JSONRPC
import RouteCore

/// `Matrix.Get`'s encoder: the same bytes as the codec's `JSONEncoder` (keys sorted, absent optionals left
/// out), written directly. A large app's matrix is 1,000 routes × 50 versions, 50,000 cells, which the
/// `JSONEncoder` took most of a second to write; here a cell is two copied byte strings.
enum MatrixJSON {
    static let encoder = RPCResultEncoder<API.MatrixGet.Output>(encode)

    private static let json: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode(_ matrix: API.MatrixGet.Output) throws -> [UInt8] {
        // Each version and state is written once; a cell copies their bytes.
        var versionText: [Version: [UInt8]] = [:]
        for version in matrix.versions { versionText[version] = try json.encode(version).bytes }
        var stateText: [API.MatrixGet.Cell.State: [UInt8]] = [:]
        for state in [API.MatrixGet.Cell.State.open, .fallback, .switchedOff, .excluded] {
            stateText[state] = try json.encode(state).bytes
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + matrix.routes.count * (160 + matrix.versions.count * 40))
        bytes += #"{"app":"#.utf8
        bytes += try json.encode(matrix.app).bytes
        bytes += #","platform":"#.utf8
        bytes += try json.encode(matrix.platform).bytes
        bytes += #","routes":["#.utf8
        for (index, row) in matrix.routes.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"action":"#.utf8
            bytes += try json.encode(row.action).bytes
            bytes += #","cells":["#.utf8
            for (at, cell) in row.cells.enumerated() {
                if at > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += #"{"state":"#.utf8
                bytes += try stateText[cell.state] ?? json.encode(cell.state).bytes
                bytes += #","version":"#.utf8
                bytes += try versionText[cell.version] ?? json.encode(cell.version).bytes
                bytes.append(UInt8(ascii: "}"))
            }
            bytes += #"],"pattern":"#.utf8
            bytes += try json.encode(row.pattern).bytes
            bytes += #","route":"#.utf8
            bytes += try json.encode(row.route).bytes
            if let since = row.supportedSince {
                bytes += #","supportedSince":"#.utf8
                bytes += try versionText[since] ?? json.encode(since).bytes
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += #"],"versions":["#.utf8
        for (index, version) in matrix.versions.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += try versionText[version] ?? json.encode(version).bytes
        }
        bytes += "]}".utf8
        return bytes
    }
}

extension Data {
    fileprivate var bytes: [UInt8] { [UInt8](self) }
}
