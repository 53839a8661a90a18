import Foundation
import JSONRPC
import RegistryService
import RouteCore

/// `CanOpen.GetTable`'s one encoder: the answer with the table's stored canonical bytes spliced in, byte for
/// byte what encoding `API.CanOpenGetTable.Output` gives (sorted keys, unescaped slashes, no `table` when
/// not modified), without decoding or re-encoding a table of thousands of rules. `GET /canopen/v1/…`
/// serves the same stored bytes, the `table` member, as a file.
enum CanOpenTableJSON {
    /// What the service answers: the ETag, whether the caller's copy is current, and the table's bytes.
    struct Answer: Sendable {
        var etag: String
        var notModified: Bool
        var table: Data?

        init(_ answer: (etag: String, notModified: Bool, table: Data?)) {
            etag = answer.etag
            notModified = answer.notModified
            table = answer.table
        }
    }

    static let encoder = RPCResultEncoder<Answer>(encode)

    static func encode(_ answer: Answer) throws -> [UInt8] {
        var bytes = Array("{\"etag\":".utf8)
        bytes.reserveCapacity(64 + (answer.table?.count ?? 0))
        try JSONText.append(answer.etag, to: &bytes)
        bytes += Array(",\"notModified\":\(answer.notModified)".utf8)
        if let table = answer.table {
            bytes += Array(",\"table\":".utf8)
            bytes += Array(table)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
