import Foundation
import JSONBytes
import Testing

/// `JSONString`: the one escaper, used by the request log, the AASA parser's rule text and the fast paths.
@Suite struct JSONStringTests {
    private func escaped(_ value: String) -> String {
        var out: [UInt8] = []
        JSONString.append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [
        ("plain/path?q=1", #""plain/path?q=1""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nfeed\rreturn\ttab", #""line\nfeed\rreturn\ttab""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1F}", #""\u0000\u0001\u0008\u000c\u001f""#),
        ("del\u{7F} é € 😀", "\"del\u{7F} é € 😀\""),
        ("", #""""#),
    ])
    func escapes(value: String, expected: String) {
        #expect(escaped(value) == expected)
    }

    /// What the fast paths write must be what the codec's encoder writes for the same value.
    @Test(arguments: ["https://m.example.com/l/a/42?x=1", #"W/"etag-1""#, #"a\b"#, " ~!@#$%^&*()_+{}|:<>?", ""])
    func printableASCIIMatchesTheEncoder(value: String) throws {
        var out: [UInt8] = [UInt8(ascii: "x")]
        #expect(JSONString.appendPrintableASCII(value, to: &out))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(out == [UInt8(ascii: "x")] + Array(try encoder.encode(value)))
    }

    @Test(arguments: ["tab\there", "é", "del\u{7F}", "nul\u{0}"])
    func printableASCIIRefusesOtherText(value: String) {
        var out: [UInt8] = Array("kept".utf8)
        #expect(!JSONString.appendPrintableASCII(value, to: &out))
        #expect(out == Array("kept".utf8))
    }

    /// The word-at-a-time test agrees with the byte-by-byte definition: every byte value at every position of
    /// every length up to 24, beside bytes that need no escape (ASCII and UTF-8 continuation bytes alike).
    @Test func needsEscapeAgreesWithTheBytes() {
        let fillers: [UInt8] = [UInt8(ascii: "a"), 0x7F, 0x80, 0xFF, UInt8(ascii: "!"), UInt8(ascii: "#")]
        for length in 1...24 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: fillers[(length + position) % fillers.count], count: length)
                    bytes[position] = byte
                    let expected = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    let found = bytes.withUnsafeBufferPointer { JSONString.needsEscape($0) }
                    if found != expected {
                        Issue.record("byte \(byte) at \(position) of \(length): \(found), expected \(expected)")
                        return
                    }
                }
            }
        }
        #expect(!JSONString.needsEscape(UnsafeBufferPointer(start: nil, count: 0)))
    }
}
