import JSONBytes

/// A cheaper way to answer the common shape of one method's calls, tried after the caller's access and
/// deadline are checked and before the method's handler.
///
/// Why: for a call as small as `CanOpen.Check`, decoding the params with `JSONDecoder` and encoding the
/// result with `JSONEncoder` cost as much as the decision itself, and walking the params once more to
/// check them against the API description cost a tenth of the call. The dispatcher reads the params of a
/// fast path straight from the bytes as flat strings (`read`), checks those strings against the description
/// (`ParamsContract.plainStrings`, `PlainStringRules.admit`) and hands them to `answer`, which writes the
/// result bytes itself. Whenever the call is not the plain shape (escapes, numbers, unknown members, values
/// the description refuses or the fast path cannot read), the full check and the method's handler answer,
/// errors included, exactly as without it.
struct RPCFastPath: Sendable {
    /// The method it answers (`CanOpen.Check`).
    let method: String
    /// The params it reads, all required; a call with any other is left to the handler.
    let params: [String]
    /// The result bytes for the values of `params` (in that order), or nil to let the method's handler
    /// answer. Thrown errors are the method's errors.
    let answer: @Sendable (RPCContext, [String]) throws -> [UInt8]?

    private let keys: [[UInt8]]
    /// The API description's rules for the values; nil: unchecked (a dispatcher without a description).
    private(set) var rules: PlainStringRules?

    init(method: String, params: [String], answer: @escaping @Sendable (RPCContext, [String]) throws -> [UInt8]?) {
        self.method = method
        self.params = params
        self.answer = answer
        keys = params.map { Array($0.utf8) }
    }

    /// The fast path held to `contract`'s rules; nil when they are not plain string rules it can check
    /// itself (then every call gets the full check and the handler).
    func checked(by contract: ParamsContract?) -> RPCFastPath? {
        guard let contract else { return self }
        var checked = self
        checked.rules = contract.plainStrings(method: method, keys: params)
        return checked.rules == nil ? nil : checked
    }

    /// The values of `params` when the call's params are an object of exactly those members, each a plain
    /// string (see `FlatJSONObject`) that the description's rules admit; nil otherwise.
    func read(_ bytes: ArraySlice<UInt8>?) -> [String]? {
        guard let values = bytes.flatMap({ FlatJSONObject.strings($0, keys: keys) }) else { return nil }
        return rules.map { $0.admit(values) } ?? true ? values : nil
    }
}

/// Writes JSON result objects by hand for the fast paths, byte for byte what the codec's encoder writes
/// (sorted keys, slashes unescaped, absent optionals left out).
struct FlatJSONWriter {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]

    /// Appends `"key":"value"`; false (and nothing appended) when `value` is not printable ASCII, so the
    /// caller falls back to the encoder. `"` and `\` are escaped as the encoder escapes them.
    mutating func append(_ key: StaticString, _ value: String) -> Bool {
        let mark = bytes.count
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        guard JSONString.appendPrintableASCII(value, to: &bytes) else {
            bytes.removeSubrange(mark...)
            return false
        }
        return true
    }

    /// The finished object (the writer's buffer, closed; no copy).
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
