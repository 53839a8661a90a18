import JSONBytes

/// Reads the params of a method's plain calls as flat strings, held to the API description's rules
/// (`FlatParams`).
///
/// For a call as small as `CanOpen.Check`, decoding the params with `JSONDecoder` and walking them again to
/// check them against the description cost as much as the decision itself. This reads the members
/// straight from the bytes (`FlatJSONObject`) and checks the strings against the description
/// (`ParamsContract.plainStrings`). Whenever the call is not the plain shape (escapes, numbers, unknown
/// members, values the description refuses), the full check and the decoder take it, errors included.
struct FlatParamsReader: Sendable {
    private let keys: [[UInt8]]
    /// The API description's rules for the values; nil: unchecked (a dispatcher without a description).
    private let rules: PlainStringRules?

    /// The reader of `method`'s flat keys, or nil when the description's rules for them are more than plain
    /// string rules it can check itself (every call then gets the full check and the decoder).
    init?(method: RPCMethod, contract: ParamsContract?) {
        guard let flatKeys = method.flatKeys else { return nil }
        keys = flatKeys.map { Array($0.utf8) }
        guard let contract else {
            rules = nil
            return
        }
        guard let rules = contract.plainStrings(method: method.name, keys: flatKeys) else { return nil }
        self.rules = rules
    }

    /// The values of the keys when the params are an object of exactly those members, each a plain string
    /// (see `FlatJSONObject`) that the description's rules admit; nil otherwise.
    func read(_ bytes: ArraySlice<UInt8>?) -> [String]? {
        guard let values = bytes.flatMap({ FlatJSONObject.strings($0, keys: keys) }) else { return nil }
        return rules.map { $0.admit(values) } ?? true ? values : nil
    }
}
