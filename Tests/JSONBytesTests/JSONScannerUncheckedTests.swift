import JSONBytes
import Testing

/// The unchecked skips: where a value ends in valid JSON is where the validating scanner ends it, and the
/// shapes the Swift client has always accepted are still accepted.
@Suite struct JSONScannerUncheckedTests {
    private func ends(_ text: String) -> (checked: Int?, unchecked: Int?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var checked = JSONScanner(buffer, maxDepth: 64)
            let checkedEnd = (try? checked.skipValue(depth: 0)) != nil ? checked.index : nil
            var unchecked = JSONScanner(buffer, maxDepth: 64)
            return (checkedEnd, unchecked.skipUncheckedValue() ? unchecked.index : nil)
        }
    }

    @Test(arguments: [
        #""a\"b\\""#, "123", "-0.5e+7", "true", "null", "[]", "{}", #"{"a":[1,{"b":"]}"}],"c":"\u005d"}"#,
        "[1, 2]  ", "12,3", "[[[]]]]", #"{"k":"v"} tail"#,
    ])
    func validValuesEndWhereTheValidatingScannerEndsThem(text: String) {
        let (checked, unchecked) = ends(text)
        #expect(checked != nil)
        #expect(unchecked == checked)
    }

    @Test(arguments: [#""open"#, "[1, 2", "", #"{"a":"}"#, "\"\\"])
    func unterminatedValuesAreRefused(text: String) {
        #expect(ends(text).unchecked == nil)
    }

    private func members(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, maxDepth: .max)
            var found: [String] = []
            let walked = scanner.skipUncheckedObject { name, value in
                found.append(
                    String(decoding: bytes[name], as: UTF8.self) + "=" + String(decoding: bytes[value], as: UTF8.self))
                return true
            }
            return walked ? found : nil
        }
    }

    @Test func objectMembersInOrderWithTheirExactBytes() {
        #expect(
            members(#" { "a" : 1 , "b\"":{"x":[1,2]},"c":"s" } "#) == [#""a"=1"#, #""b\""={"x":[1,2]}"#, #""c"="s""#])
        #expect(members("{}") == [])
        // Not checked here (the client's decoder reads the value later): a misspelt literal still ends a member.
        #expect(members(#"{"a":tru}"#) == [#""a"=tru"#])
    }

    @Test(arguments: ["[]", #"{"a" 1}"#, #"{"a":1,}"#, #"{"a":1"#, #"{a:1}"#, #"{"a":}"#])
    func notAnObjectShape(text: String) {
        #expect(members(text) == nil)
    }

    @Test func aMemberCanStopTheWalk() {
        let bytes = Array(#"{"a":1,"b":2}"#.utf8)
        var seen = 0
        let walked = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, maxDepth: .max)
            return scanner.skipUncheckedObject { _, _ in
                seen += 1
                return false
            }
        }
        #expect(!walked)
        #expect(seen == 1)
    }
}
