import Foundation
import JSONBytes
import JSONRPC
import RouteCore

/// `CanOpen.Check`'s one encoder: a `Decision` as JSON, keys sorted, absent optionals left out, strings
/// escaped as the codec's `JSONEncoder` escapes them. Every `CanOpen.Check` answer comes from it, however
/// its params were read.
enum DecisionJSON {
    static let encoder = RPCResultEncoder<Decision>(encode)

    static func encode(_ decision: Decision) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + (decision.fallbackUrl?.utf8.count ?? 0))
        bytes.append(UInt8(ascii: "{"))
        try member("decision", decision.decision.rawValue, to: &bytes)
        if let url = decision.fallbackUrl { try member("fallbackUrl", url, to: &bytes) }
        if let reason = decision.reason { try member("reason", reason.rawValue, to: &bytes) }
        if let route = decision.route { try member("route", route, to: &bytes) }
        if let since = decision.supportedSince { try member("supportedSince", since, to: &bytes) }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private static func member(_ key: StaticString, _ value: String, to bytes: inout [UInt8]) throws {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        try JSONText.append(value, to: &bytes)
    }
}

/// A string value as the codec's `JSONEncoder` writes it: printable ASCII (nearly every URL, id and ETag)
/// by `JSONString`, anything else by the encoder itself, whose escapes of control characters differ.
enum JSONText {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func append(_ value: String, to bytes: inout [UInt8]) throws {
        if !JSONString.appendPrintableASCII(value, to: &bytes) { bytes += try encoder.encode(value) }
    }
}
