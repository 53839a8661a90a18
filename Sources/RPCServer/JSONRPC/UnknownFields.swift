import Foundation

/// Refuses params that carry fields the method does not know.
///
/// Swift's decoders ignore unknown keys, which would turn a typo into silence: `{"pattern": {"paht": "/x"}}`
/// decodes as a pattern with no path, which matches every URL. For writes that is unacceptable, so the
/// decoded input is encoded again and every key of the request that did not survive the round trip is
/// reported as -32602 naming the field. Output-only fields of resources (`name`, `etag`, timestamps…) are
/// tolerated so a Get → edit → Update round trip works.
enum UnknownFields {
    /// Keys a client may send back from a resource it read; the server ignores them.
    static let outputOnly: Set<String> = ["name", "etag", "createTime", "updateTime", "app", "position"]

    static func check<Input: Encodable>(_ input: Input, params: ArraySlice<UInt8>?, codec: JSONRPCCodec) throws {
        guard let params, let sent = try? JSONSerialization.jsonObject(with: Data(params)),
            let kept = try? JSONSerialization.jsonObject(with: codec.encoder.encode(input))
        else { return }
        if let path = firstUnknown(sent: sent, kept: kept, path: []) {
            throw InvalidParams(
                error: .dataCorrupted(
                    DecodingError.Context(codingPath: path, debugDescription: "is not a field of this method")))
        }
    }

    private static func firstUnknown(sent: Any, kept: Any, path: [PathKey]) -> [PathKey]? {
        if let sent = sent as? [String: Any] {
            let kept = kept as? [String: Any] ?? [:]
            for key in sent.keys.sorted() {
                let value = sent[key]!
                guard let keptValue = kept[key] else {
                    if value is NSNull || (!path.isEmpty && outputOnly.contains(key)) || (path.isEmpty && key == "etag")
                    {
                        continue
                    }
                    // A top-level output-only name (e.g. `app`) is a real param of many methods: only tolerate
                    // it where the method took it, which the round trip shows.
                    return path + [PathKey(key)]
                }
                if let found = firstUnknown(sent: value, kept: keptValue, path: path + [PathKey(key)]) { return found }
            }
        } else if let sent = sent as? [Any], let kept = kept as? [Any] {
            for (index, value) in sent.enumerated() where index < kept.count {
                if let found = firstUnknown(sent: value, kept: kept[index], path: path + [PathKey(index)]) {
                    return found
                }
            }
        }
        return nil
    }

    struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init(_ index: Int) {
            stringValue = "Index \(index)"
            intValue = index
        }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(intValue) }
    }
}
