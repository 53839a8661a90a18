import JSONBytes
import Testing

/// `FlatJSONObject`: the fast paths' reader, which answers only for objects of exactly the named plain strings.
@Suite struct FlatJSONObjectTests {
    private let keys = [Array("app".utf8), Array("url".utf8)]

    private func read(_ text: String) -> [String]? { FlatJSONObject.strings(Array(text.utf8)[...], keys: keys) }

    @Test func membersInTheOrderOfTheKeysWithQuotesBackslashesAndSlashesDecoded() {
        #expect(read(#" { "url" : "https:\/\/x\/a" , "app":"W/\"e\\1\"" } "#) == ["W/\"e\\1\"", "https://x/a"])
    }

    @Test(arguments: [
        #"{"app":"a"}"#, #"{"app":"a","url":"u","x":"y"}"#, #"{"app":"a","app":"b","url":"u"}"#,
        #"{"app":1,"url":"u"}"#, #"{"app":"\n","url":"u"}"#, #"{"app":"\u0041","url":"u"}"#, "{}", "[]",
    ])
    func anythingElseIsLeftToTheDecoder(text: String) {
        #expect(read(text) == nil)
    }
}
